import Link from "next/link";
import type { Partner } from "@/lib/partners";
import { Time } from "../_components/ui";

/** How long every page tells the organisation that Finca approved its live access (while it works in test mode). */
const TOLD_FOR_MS = 14 * 86_400_000;

/**
 * Finca's approval of the organisation's live access, told on every page of test mode for two weeks:
 * the owner who asked learns it without reloading the API keys page, and where to go next.
 */
export function LiveAccessNotice({ partner, keys }: { partner: Partner | null; keys: boolean }) {
  const decidedAt = partner?.liveAccess === "approved" ? partner.liveDecidedAt : null;
  if (!decidedAt || Date.now() - decidedAt.getTime() > TOLD_FOR_MS) return null;
  return (
    <p
      role="status"
      data-testid="live-access-notice"
      className="mb-6 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
    >
      Finca approved your organisation&apos;s live access on <Time value={decidedAt} />. Switch to live at the top
      {keys ? (
        <>
          , and create a live key on the{" "}
          <Link className="link" href="/keys">
            API keys
          </Link>{" "}
          page.
        </>
      ) : (
        "."
      )}
    </p>
  );
}
