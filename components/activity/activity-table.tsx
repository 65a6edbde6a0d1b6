import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { ActivityEntry } from "@/lib/contract/activity";
import { activityOutcome, activityReasons, activitySummary, targetHref } from "@/lib/contract/activity-words";
import { formatDateTime } from "@/lib/contract/format-date";

const TONES = { good: "success", bad: "danger", neutral: "neutral" } as const;
// On a phone each row becomes a card: cells stack, each led by its column's name.
const CELL =
  "px-3 py-2 align-top max-sm:flex max-sm:gap-2 max-sm:px-0 max-sm:py-0.5 max-sm:before:w-20 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]";

/** The entries of one page, newest first: when (in the business time zone), who, what in words with the reason, the target, how it ended, the request. */
export function ActivityTable({ entries, timeZone }: { entries: ActivityEntry[]; timeZone: string }) {
  return (
    <table className="w-full text-sm max-sm:block">
      <caption className="sr-only">Activity, newest first</caption>
      <thead className="border-b border-border text-left text-xs text-muted-foreground max-sm:sr-only">
        <tr>
          <th scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
            When ({timeZone})
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            Who
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            What
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            Outcome
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            Request
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border max-sm:block">
        {entries.map((entry) => {
          const outcome = activityOutcome(entry);
          const href = targetHref(entry.target);
          const reasons = activityReasons(entry);
          return (
            <tr key={entry.seq} className="max-sm:block max-sm:px-3 max-sm:py-3" data-testid="activity-entry">
              <td data-label="When" className={`${CELL} whitespace-nowrap tabular-nums`}>
                <time dateTime={entry.at}>{formatDateTime(entry.at, timeZone)}</time>
              </td>
              <td data-label="Who" className={`${CELL} [overflow-wrap:anywhere]`}>
                <bdi>{entry.actor_email}</bdi>
              </td>
              <td data-label="What" className={CELL}>
                <div className="min-w-0">
                  <p className="[overflow-wrap:anywhere]">
                    {href ? (
                      <Link href={href} className="underline-offset-2 hover:underline">
                        <bdi>{activitySummary(entry)}</bdi>
                      </Link>
                    ) : (
                      <bdi>{activitySummary(entry)}</bdi>
                    )}
                  </p>
                  {reasons.map(({ label, text }) => (
                    <p key={label} className="mt-0.5 text-muted-foreground [overflow-wrap:anywhere]">
                      {label}: <bdi>{text}</bdi>
                    </p>
                  ))}
                </div>
              </td>
              <td data-label="Outcome" className={CELL}>
                {outcome ? (
                  <Badge tone={TONES[outcome.tone]} dot>
                    {outcome.label}
                  </Badge>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </td>
              <td data-label="Request" className={`${CELL} font-mono text-xs leading-5 text-muted-foreground`}>
                {entry.request_id ? <span title={entry.request_id}>{entry.request_id.slice(0, 12)}</span> : "—"}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
