import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import type { SignInEntry } from "@/lib/console/auth/sessions";

/** The person's last sign-in attempts from the audit log: a refusal they did not make is worth noticing. */
export function RecentSignIns({ entries }: { entries: SignInEntry[] }) {
  return (
    <section aria-labelledby="sign-ins-heading" className="flex max-w-2xl flex-col gap-4" id="sign-ins">
      <div>
        <h2 id="sign-ins-heading" className="text-lg font-semibold tracking-tight">
          Recent sign-ins
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {entries.length === 0
            ? "No sign-in with your email is recorded yet."
            : "The latest attempts to sign in with your email, newest first. If one was not you, sign out everywhere else and tell an admin."}
        </p>
      </div>
      {entries.length > 0 && (
        <ul aria-label="Recent sign-ins" className="divide-y divide-border rounded-md border border-border" data-testid="recent-sign-ins">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-0.5 p-3 text-sm">
              <span className="flex flex-wrap items-center gap-2">
                <DateTime iso={entry.at} />
                <Badge tone={entry.outcome === "Signed in" ? "success" : "danger"} dot>
                  {entry.outcome}
                </Badge>
                {entry.reason && <span className="text-muted-foreground">{entry.reason}</span>}
              </span>
              <span className="text-xs text-muted-foreground">
                {entry.method} · from <span className="font-mono">{entry.address ?? "an unknown address"}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
