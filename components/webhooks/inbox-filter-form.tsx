import Link from "next/link";
import type { InboxFilter } from "@/lib/contract";
import { INBOX_VERDICT_LABELS, INBOX_VERDICTS } from "@/lib/contract/inbox-verdicts";

const FIELD = "flex flex-col gap-1 text-xs font-medium text-muted-foreground";
const CONTROL = "h-control-sm rounded-md border border-input bg-card px-2 text-sm text-card-foreground shadow-xs";

/**
 * Which webhooks the inbox shows, as a GET form (the page's address holds it; it works without script): some
 * verdicts, one invoice. So the one signed webhook a demo is about stays in view among many unsigned posts.
 */
export function InboxFilterForm({ filter }: { filter: InboxFilter }) {
  const chosen = new Set(filter.verdicts);
  const filtered = filter.verdicts.length > 0 || filter.invoiceId !== null;
  return (
    <form method="get" action="/webhooks" aria-label="Filter the inbox" className="mb-4 flex flex-wrap items-end gap-3">
      <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <legend className="mb-1 text-xs font-medium text-muted-foreground">Verdict</legend>
        {INBOX_VERDICTS.map((verdict) => (
          <label key={verdict} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              name="inbox_verdict"
              value={verdict}
              defaultChecked={chosen.has(verdict)}
              className="size-4 accent-primary"
            />
            {INBOX_VERDICT_LABELS[verdict]}
          </label>
        ))}
      </fieldset>
      <label className={FIELD}>
        Only the invoice
        <input
          name="inbox_invoice"
          defaultValue={filter.invoiceId ?? ""}
          maxLength={500}
          spellCheck={false}
          className={`${CONTROL} w-56 font-mono`}
        />
      </label>
      <button type="submit" className={`${CONTROL} font-medium hover:bg-accent`}>
        Show
      </button>
      {filtered && (
        <Link href="/webhooks" className="text-sm underline underline-offset-2">
          Show all
        </Link>
      )}
    </form>
  );
}
