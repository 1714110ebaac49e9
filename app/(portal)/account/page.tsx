import { requirePartner } from "@/server/session";
import { AccountPage } from "../../_account/account-page";

export const metadata = { title: "Your account" };

export default async function Account({ searchParams }: { searchParams: Promise<{ changed?: string }> }) {
  return <AccountPage ctx={await requirePartner()} home="/dashboard" changed={(await searchParams).changed === "1"} />;
}
