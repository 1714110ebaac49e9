// How a partner installs the SDK and its `finca` command: from this server's URL, with the SHA-256
// to check the download against (the docs' guide and the API keys page show the same).
import { type SdkPackage, sdkPackage } from "@/server/sdk-package";
import { c } from "./guide";
import { CodeBlock } from "./ui";

export function sdkInstallCommands(pkg: SdkPackage, origin: string): string {
  const url = `${origin}${pkg.path}`;
  return `npm install -g ${url}   # the finca command
npm install ${url}      # the library, in your project

# to check the file first: its SHA-256 is ${pkg.sha256}
curl -fsSLO ${url} && curl -fsSL ${url}.sha256 | sha256sum -c`;
}

export async function SdkInstall({ origin }: { origin: string }) {
  const pkg = await sdkPackage();
  if (!pkg)
    return (
      <p className="text-sm text-slate-600">
        This server has not packed the SDK ({c("node scripts/build.mjs")} does, as {c("npm start")} does): ask your
        Finca contact for the package.
      </p>
    );
  return (
    <>
      <CodeBlock label="Install the SDK and the finca command">{sdkInstallCommands(pkg, origin)}</CodeBlock>
      <p className="mt-2 text-sm text-slate-600">
        Version {pkg.version}, served by this server. It is not on the public npm registry: install it from this URL,
        never by the name {c(pkg.name)} alone, which anyone could publish there.
      </p>
    </>
  );
}
