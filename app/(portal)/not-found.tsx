import Link from "next/link";
import { EmptyState } from "../_components/ui";

// Inside the portal, "not found" also covers another organisation's or the other mode's ids.
export default function PortalNotFound() {
  return (
    <EmptyState
      title="Not found in this organisation and mode"
      action={
        <Link className="btn-secondary" href="/properties">
          All properties
        </Link>
      }
    >
      It may belong to the other mode (switch between test and live at the top), or the link may be wrong.
    </EmptyState>
  );
}
