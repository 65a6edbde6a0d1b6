import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { DAY_FORMAT, DateInput } from "@/components/ui/date-input";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/browser/cn";
import { ACTIVITY_KINDS, type ActivityQuery, activitySearch, isFiltered } from "@/lib/contract/activity";

const FIELD = "flex flex-col gap-1 text-xs font-medium text-muted-foreground";
const SELECT = "h-control w-full rounded-md border border-input bg-card px-2 text-sm text-card-foreground shadow-xs";

/**
 * The view's filters as one GET form: works before and without script, and its address is the view (a link,
 * a bookmark, the export's parameters). Kinds are checkboxes under a disclosure, several at once.
 */
export function ActivityFilters({ query, people, timeZone }: { query: ActivityQuery; people: string[]; timeZone: string }) {
  const chosen = new Set(query.action);
  return (
    <form
      method="get"
      action="/activity"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      aria-label="Filter activity"
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <label className={FIELD}>
          Person
          <select name="actor" defaultValue={query.actor ?? ""} className={SELECT}>
            <option value="">Anyone</option>
            {people.map((email) => (
              <option key={email} value={email}>
                {email}
              </option>
            ))}
          </select>
        </label>
        <label className={FIELD}>
          Invoice or target
          <Input
            name="target"
            defaultValue={query.target ?? ""}
            placeholder="Order id, invoice id or email"
            maxLength={300}
            spellCheck={false}
          />
        </label>
        <label className={FIELD}>
          Reason contains
          <Input name="q" type="search" defaultValue={query.q ?? ""} maxLength={200} />
        </label>
        <label className={FIELD}>
          From
          <DateInput name="after" defaultValue={query.after ?? ""} aria-describedby="activity-days" />
        </label>
        <label className={FIELD}>
          To
          <DateInput name="before" defaultValue={query.before ?? ""} aria-describedby="activity-days" />
        </label>
      </div>
      {/* Said once under the fields, so that their labels are one line and the fields line up. */}
      <p id="activity-days" className="-mt-2 text-xs text-muted-foreground">
        From and To: days as {DAY_FORMAT} in the business time zone ({timeZone}), both included.
      </p>
      <details className="group text-sm" open={chosen.size > 0}>
        <summary className="cursor-pointer font-medium text-foreground">
          Kinds of activity{chosen.size ? ` (${chosen.size} chosen)` : ": all"}
        </summary>
        <fieldset className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2 lg:grid-cols-3">
          <legend className="sr-only">Kinds of activity</legend>
          {Object.entries(ACTIVITY_KINDS).map(([kind, label]) => (
            <label key={kind} className="flex items-center gap-2 py-0.5">
              <input type="checkbox" name="action" value={kind} defaultChecked={chosen.has(kind)} className="size-4 accent-primary" />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
      </details>
      {query.page_size !== 50 && <input type="hidden" name="page_size" value={query.page_size} />}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={cn(buttonVariants({ variant: "primary", size: "md" }))}>
          Apply filters
        </button>
        {isFiltered(query) && (
          <Link href="/activity" className={cn(buttonVariants({ variant: "ghost", size: "md" }))}>
            Clear filters
          </Link>
        )}
        <span className="ms-auto flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground">Export this view:</span>
          <a className="font-medium underline underline-offset-2" href={`/api/activity/export${exportSearch(query, "csv")}`} download>
            CSV
          </a>
          <a className="font-medium underline underline-offset-2" href={`/api/activity/export${exportSearch(query, "json")}`} download>
            JSON
          </a>
        </span>
      </div>
    </form>
  );
}

function exportSearch(query: ActivityQuery, format: "csv" | "json"): string {
  const params = new URLSearchParams(activitySearch(query, { page: 1, page_size: 50 }));
  params.set("format", format);
  return `?${params}`;
}
