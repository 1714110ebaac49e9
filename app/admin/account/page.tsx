import { requireOperator } from "@/server/session";
import { AccountPage } from "../../_account/account-page";

export const metadata = { title: "Your account" };

export default async function AdminAccount({ searchParams }: { searchParams: Promise<{ changed?: string }> }) {
  return <AccountPage ctx={await requireOperator()} home="/admin" changed={(await searchParams).changed === "1"} />;
}
