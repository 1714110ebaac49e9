// The SDK's types are the API's: generating them from today's OpenAPI document gives the file in
// packages/sdk (a change to an operation's schemas must run `npm run sdk:generate`).
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { SDK_TYPES, sdkTypes } from "@/scripts/generate-sdk";

it("packages/sdk/src/openapi.ts is generated from the current OpenAPI document", async () => {
  expect(await readFile(SDK_TYPES, "utf8"), "run npm run sdk:generate").toBe(await sdkTypes());
});
