"use client";

import { ActionOutcome } from "@/components/ui/action-outcome";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DateTime } from "@/components/ui/date-time";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { SessionSummary } from "@/lib/console/auth/sessions";
import type { ActionState } from "@/lib/console/bff/action";

type EndAction = (state: ActionState, form: FormData) => Promise<ActionState>;

/**
 * Signed-in sessions, each with a Sign out button but the one this page was drawn with. One plain form: each
 * button posts its session's id (the submitter's value, also without script), and the answer is said once
 * above the list, since the ended row is gone when the page is drawn again.
 */
export function SessionList({ sessions, endAction, label }: { sessions: SessionSummary[]; endAction: EndAction; label: string }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(endAction, {});
  return (
    <form action={action} onSubmit={onSubmit} className="flex flex-col gap-3">
      <DrawnForField />
      <ActionOutcome state={state} />
      <ul aria-label={label} className="divide-y divide-border rounded-md border border-border">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-start justify-between gap-3 p-3" data-testid="session">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                {session.browser} on {session.system}
                {session.current && <Badge tone="info">This session</Badge>}
              </p>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
                <dt>Address</dt>
                <dd className="font-mono text-foreground">{session.address ?? "—"}</dd>
                <dt>Signed in</dt>
                <dd className="text-foreground">
                  <DateTime iso={session.signedInAt} />
                </dd>
                {/* better-auth moves updated_at only on its hourly refresh, so it is not "last active". */}
                <dt>Last refreshed</dt>
                <dd className="text-foreground">
                  <DateTime iso={session.refreshedAt} />
                </dd>
                <dt>Expires</dt>
                <dd className="text-foreground">
                  <DateTime iso={session.expiresAt} />
                </dd>
              </dl>
            </div>
            {!session.current && (
              <Button
                type="submit"
                size="sm"
                name="session"
                value={session.id}
                disabled={pending}
                aria-label={`Sign out ${session.browser} on ${session.system}, from ${session.address ?? "an unknown address"}`}
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
    </form>
  );
}
