// The partner API bound to the process's App, for the Next.js catch-all route: what answers it where
// Next.js runs alone (`next start`, a platform); `npm start` sends the API to its own listener.
import { createPartnerApi, type PartnerApi } from "@/lib/partner-api";
import { getApp } from "./app";

let api: Promise<PartnerApi> | undefined;

export async function handlePartnerApi(req: Request): Promise<Response> {
  api ??= getApp().then(createPartnerApi);
  return (await api).dispatch(req);
}
