"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** Navigation that marks the current section (aria-current) so sighted and screen-reader users know where they are. */
export function NavLinks({
  links,
  label,
  tone = "light",
}: {
  links: readonly (readonly [string, string])[];
  label: string;
  tone?: "light" | "dark";
}) {
  const pathname = usePathname();
  // The longest matching prefix wins, so /admin does not light up on /admin/keys.
  const current = links
    .map(([href]) => href)
    .filter((href) => pathname === href || pathname.startsWith(`${href}/`))
    .sort((a, b) => b.length - a.length)[0];
  const base = "whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm font-medium";
  const styles =
    tone === "light"
      ? { on: "bg-brand-50 text-brand-800", off: "text-slate-700 hover:bg-slate-100 hover:text-slate-900" }
      : { on: "bg-slate-700 text-white", off: "text-slate-200 hover:bg-slate-800 hover:text-white" };
  return (
    <nav aria-label={label} className="-mx-1 flex flex-wrap gap-1 px-1 pb-2 sm:pb-0">
      {links.map(([href, text]) => (
        <Link
          key={href}
          href={href}
          aria-current={href === current ? "page" : undefined}
          className={`${base} ${href === current ? styles.on : styles.off}`}
        >
          {text}
        </Link>
      ))}
    </nav>
  );
}
