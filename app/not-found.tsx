import { StatusPage } from "./_components/status-page";

export const metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <StatusPage
      status={404}
      title="Page not found"
      main={["/dashboard", "Go to the portal"]}
      other={["/docs", "Read the docs"]}
    >
      The address may be mistyped, or the page may have moved.
    </StatusPage>
  );
}
