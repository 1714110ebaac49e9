// The client's address for limits and the security history: the entry the trusted proxies
// appended (TRUSTED_PROXY_HOPS), else the socket's as `npm start`'s front door vouched for it
// (server/http.ts), else unknown (`next start` alone).
import { requestAddress } from "@/lib/auth/throttle";
import type { Config } from "@/lib/config";

export const clientAddressOf = (headers: Headers, config: Pick<Config, "TRUSTED_PROXY_HOPS">): string | null =>
  requestAddress(headers, config.TRUSTED_PROXY_HOPS, process.env.FINCA_FRONT_DOOR_TOKEN);
