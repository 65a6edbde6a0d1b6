import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import type { SearchIndexState } from "@/lib/contract";
import { fillProgress, fillProgressSentence } from "@/lib/contract/fill-progress";
import { formatAge, formatCount } from "@/lib/contract/format";

/** For admins: how far the search index's first fill is, how fresh it is, and why its sync waits, if it does. */
export function SearchIndexCard({ index, syncSeconds }: { index: SearchIndexState; syncSeconds: number }) {
  const filling = index.state === "filling";
  const progress = fillProgress(index);
  const percent = progress?.total ? Math.min(100, Math.round((progress.read / Math.max(1, progress.total)) * 100)) : null;
  return (
    <Card aria-labelledby="search-index-title">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id="search-index-title">Search index</CardTitle>
          {index.paused_reason === "rate_limited" ? (
            <Badge tone="warning">Paused: rate limited</Badge>
          ) : index.paused_reason ? (
            <Badge tone="danger">Last sync failed</Badge>
          ) : filling ? (
            <Badge tone="info">First fill</Badge>
          ) : (
            <Badge tone="success">Ready</Badge>
          )}
        </div>
        <CardDescription>
          The console keeps invoice summaries of its own so support can find an invoice by order id or name. It syncs{" "}
          {syncSeconds > 0 ? `every ${syncSeconds} s` : "on another instance (SEARCH_SYNC_SECONDS=0 here)"}.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {filling && (
          <div>
            <div className="flex justify-between text-muted-foreground">
              <span>First fill</span>
              <span className="tabular-nums">
                {percent === null
                  ? "starting…"
                  : `${fillProgressSentence(progress).replace(/^Reading your invoices: |\.$/g, "")} (${percent} %)`}
              </span>
            </div>
            <progress
              aria-label="First fill of the search index"
              className="mt-1 h-2 w-full accent-primary"
              max={100}
              value={percent ?? 0}
            />
          </div>
        )}
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Invoices indexed</dt>
          <dd className="tabular-nums">{index.indexed === null ? "—" : formatCount(index.indexed)}</dd>
          <dt className="text-muted-foreground">Fresh as of</dt>
          <dd>{index.fresh_as_of && index.age_seconds !== null ? formatAge(index.age_seconds) : "not yet"}</dd>
          <dt className="text-muted-foreground">Next sync</dt>
          <dd>
            <DateTime iso={index.next_try_at} />
          </dd>
          <dt className="text-muted-foreground">Last sync</dt>
          <dd className="tabular-nums">
            {index.last_walk_ms === null
              ? "—"
              : `${(index.last_walk_ms / 1000).toFixed(1)} s, ${index.last_walk_calls} provider call${index.last_walk_calls === 1 ? "" : "s"}`}
          </dd>
          <dt className="text-muted-foreground">Provider calls</dt>
          <dd className="tabular-nums">{formatCount(index.upstream_calls)}</dd>
        </dl>
        {index.paused_detail && <p className="text-muted-foreground">{index.paused_detail}</p>}
      </CardContent>
    </Card>
  );
}
