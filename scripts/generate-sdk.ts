// Writes the SDK's types (packages/sdk/src/openapi.ts) from the API's own OpenAPI document, with
// openapi-typescript. `--check` writes nothing and exits 1 when the file is not current (npm test
// runs that check: a change to an operation's schemas must regenerate the SDK's types).
//   npm run sdk:generate          (node --import tsx scripts/generate-sdk.ts)
import { readFile, writeFile } from "node:fs/promises";
import openapiTS, { astToString, STRING, tsUnion } from "openapi-typescript";
import ts from "typescript";
import { loadConfig } from "@/lib/config";
import { openApiDocument } from "@/lib/partner-api";

export const SDK_TYPES = "packages/sdk/src/openapi.ts";

type Media = { content?: Record<string, { example?: unknown }> };
type Paths = Record<string, Record<string, { requestBody?: Media; responses: Record<string, Media> }>>;

/**
 * The document without its bodies' examples: in the types they would be a thousand lines of JSDoc
 * (the API reference shows them). Parameters keep theirs: a line each.
 */
function withoutBodyExamples<D extends { paths: Paths; webhooks: Paths }>(document: D): D {
  for (const item of [...Object.values(document.paths), ...Object.values(document.webhooks)])
    for (const op of Object.values(item))
      for (const part of [op.requestBody, ...Object.values(op.responses)])
        for (const media of Object.values(part?.content ?? {})) Reflect.deleteProperty(media, "example");
  return document;
}

export async function sdkTypes(): Promise<string> {
  const document = withoutBodyExamples(JSON.parse(JSON.stringify(openApiDocument(loadConfig({})))));
  const ast = await openapiTS(document, {
    alphabetize: false,
    exportType: true,
    // A file request body is sent as it is: a CSV as its text or a Blob of its bytes (a file read, not
    // decoded), a workbook as a Blob.
    transform: (_, { path }) =>
      path?.endsWith("/requestBody/content/text~1csv")
        ? tsUnion([STRING, ts.factory.createTypeReferenceNode("Blob")])
        : path?.endsWith("/requestBody/content/application~1vnd.openxmlformats-officedocument.spreadsheetml.sheet")
          ? ts.factory.createTypeReferenceNode("Blob")
          : undefined,
  });
  return `// Generated from the partner API's OpenAPI document by scripts/generate-sdk.ts: do not edit.\n${astToString(ast)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const types = await sdkTypes();
  if (process.argv.includes("--check")) {
    const current = await readFile(SDK_TYPES, "utf8").catch(() => "");
    if (current !== types) {
      console.error(`${SDK_TYPES} is not current: run npm run sdk:generate`);
      process.exit(1);
    }
  } else await writeFile(SDK_TYPES, types);
}
