import Link from "next/link";
import { DAY_FORMAT, DateInput } from "@/components/ui/date-input";
import { DELIVERY_STATE_LABELS, DELIVERY_STATES, type DeliveryView, deliveryViewHref } from "@/lib/contract";

const FIELD = "flex flex-col gap-1 text-xs font-medium text-muted-foreground";
const CONTROL = "h-control-sm rounded-md border border-input bg-card px-2 text-sm text-card-foreground shadow-xs";

/**
 * Which deliveries the view shows, as a GET form (the address holds it; it works without script), with the
 * states one click away as links, the form keeping the one chosen. Days are days in `timeZone`, both included.
 */
export function DeliveryFilterForm({ view, timeZone }: { view: DeliveryView; timeZone: string }) {
  return (
    <div className="mb-4 flex flex-col gap-3">
      {/* Drawn as the overview's periods are: the state shown stands out from the others. */}
      <nav aria-label="Deliveries by state" className="flex w-fit flex-wrap rounded-md border border-border bg-card p-0.5 text-sm">
        {[null, ...DELIVERY_STATES].map((state) => (
          <Link
            key={state ?? "all"}
            href={deliveryViewHref({ ...view, state, page: 1 })}
            aria-current={view.state === state ? "page" : undefined}
            className="rounded px-3 py-1.5 font-medium text-muted-foreground hover:text-foreground aria-[current=page]:bg-accent aria-[current=page]:text-accent-foreground"
          >
            {state ? DELIVERY_STATE_LABELS[state] : "All"}
          </Link>
        ))}
      </nav>
      {/* Keyed by the view: a tab or a page link changes the address, and the fields must show what it holds. */}
      <form
        key={deliveryViewHref(view)}
        method="get"
        action="/webhooks/deliveries"
        aria-label="Filter the deliveries"
        className="flex flex-wrap items-end gap-3"
      >
        {/* The state is the tab's: "Show" keeps it. */}
        {view.state && <input type="hidden" name="state" value={view.state} />}
        <label className={FIELD}>
          Invoice or order id
          <input
            name="invoice"
            defaultValue={view.invoice ?? ""}
            maxLength={500}
            spellCheck={false}
            className={`${CONTROL} w-56 font-mono`}
          />
        </label>
        <label className={FIELD}>
          From
          <DateInput name="from" defaultValue={view.from ?? ""} size="sm" className="max-w-36" aria-describedby="delivery-days" />
        </label>
        <label className={FIELD}>
          To
          <DateInput name="to" defaultValue={view.to ?? ""} size="sm" className="max-w-36" aria-describedby="delivery-days" />
        </label>
        <button type="submit" className={`${CONTROL} font-medium hover:bg-accent`}>
          Show
        </button>
      </form>
      {/* Said once under the fields, so that their labels are one line and fit their fields. */}
      <p id="delivery-days" className="-mt-1 text-xs text-muted-foreground">
        From and To: days as {DAY_FORMAT} in {timeZone}, both included.
      </p>
    </div>
  );
}
