import { isKnownStatus, STATUS_DESCRIPTIONS, STATUS_LABELS, type AnyInvoiceStatus } from "@/lib/invoicing";

const STYLES: Record<AnyInvoiceStatus, string> = {
  new: "bg-sky-50 text-sky-800 ring-sky-200 [--dot:var(--color-sky-500)]",
  pending: "bg-amber-50 text-amber-800 ring-amber-200 [--dot:var(--color-amber-500)]",
  completed: "bg-emerald-50 text-emerald-800 ring-emerald-200 [--dot:var(--color-emerald-500)]",
  expired: "bg-zinc-100 text-zinc-700 ring-zinc-200 [--dot:var(--color-zinc-400)]",
  cancelled: "bg-rose-50 text-rose-800 ring-rose-200 [--dot:var(--color-rose-500)]",
  paid_partial: "bg-orange-50 text-orange-800 ring-orange-200 [--dot:var(--color-orange-500)]",
  archived: "bg-violet-50 text-violet-800 ring-violet-200 [--dot:var(--color-violet-500)]",
};

/** Status as colour and text; a status the console does not know yet is shown as the provider sent it. */
export function StatusBadge({ status }: { status: string | null }) {
  if (status === null || status.trim() === "") return <span className="text-zinc-400" title="The invoicing API gave no status">—</span>;
  const known = isKnownStatus(status);
  return (
    <span
      title={known ? STATUS_DESCRIPTIONS[status] : "A status the console does not know, shown as the invoicing API sent it."}
      data-status={known ? status : "unknown"}
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${
        known ? STYLES[status] : "bg-zinc-50 text-zinc-700 ring-zinc-200 [--dot:var(--color-zinc-400)]"
      }`}
    >
      <span aria-hidden className="size-1.5 rounded-full bg-(--dot)" />
      {known ? STATUS_LABELS[status] : status}
    </span>
  );
}
