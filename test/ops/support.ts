// The operators' endpoints of a test App on a real socket (the lean server, as deployed), and the
// readiness problem's shape.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { opsHandlers } from "@/server/ops";
import type { TestApp } from "../support/app";

export async function serve(t: TestApp): Promise<{ url: (path: string) => string; close(): Promise<void> }> {
  const server: Server = createPartnerApiServer(t.api, opsHandlers(t.app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
