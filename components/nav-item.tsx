/** A link of the main navigation; `count` (waiting approvals) is shown beside its label and read after it. */
export type NavItem = { href: string; label: string; count?: number; countLabel?: string };

export function isCurrent(pathname: string, href: string) {
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** "Approvals 3": the figure is seen, and read as "3 waiting", so the link's name still starts with its text. */
export function NavCount({ item }: { item: NavItem }) {
  if (!item.count) return null;
  return (
    <span className="ml-1.5 inline-grid min-w-5 place-items-center rounded-full bg-warning-muted px-1.5 text-xs font-semibold text-warning-text tabular-nums ring-1 ring-warning-border ring-inset">
      {item.count}
      <span className="sr-only"> {item.countLabel ?? ""}</span>
    </span>
  );
}
