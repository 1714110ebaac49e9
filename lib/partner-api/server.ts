// Binds the handlers to the process's App for the Next.js route files (which only re-export these).
import { getApp } from "@/lib/app";
import { createPartnerApi, type PartnerApi } from ".";
import type { Handler } from "./route";

let api: Promise<PartnerApi> | undefined;

export function handler(name: keyof PartnerApi): Handler {
  return async (req) => {
    api ??= getApp().then(createPartnerApi);
    return (await api)[name](req);
  };
}
