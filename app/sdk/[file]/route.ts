// GET /sdk/<package>.tgz: the SDK's package, for `npm install -g <this URL>`; GET /sdk/<package>.tgz.sha256:
// its SHA-256 in `sha256sum -c` form. Public (npm sends no session), and nothing in it is secret.
import { sdkPackage, sdkTarball } from "@/server/sdk-package";

const notFound = (text: string) =>
  new Response(text, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const pkg = await sdkPackage();
  if (!pkg) return notFound("The SDK's package has not been built on this server (node scripts/build.mjs).\n");
  // The same bytes at the same URL until the sources change: revalidated, never served stale.
  const cache = { "Cache-Control": "public, no-cache", ETag: `"${pkg.sha256}"` };
  if (file === pkg.file)
    return new Response(new Uint8Array(await sdkTarball(pkg)), {
      headers: {
        ...cache,
        "Content-Type": "application/gzip",
        "Content-Disposition": `attachment; filename="${pkg.file}"`,
        "Repr-Digest": `sha-256=:${Buffer.from(pkg.sha256, "hex").toString("base64")}:`,
      },
    });
  if (file === `${pkg.file}.sha256`)
    return new Response(`${pkg.sha256}  ${pkg.file}\n`, {
      headers: { ...cache, "Content-Type": "text/plain; charset=utf-8" },
    });
  return notFound(`No such file. The SDK's package is ${pkg.path}.\n`);
}
