"use client";

import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { endOtherSessionsAction, endOwnSessionAction } from "@/lib/console/auth/session-actions";
import type { SessionSummary } from "@/lib/console/auth/sessions";
import type { ActionState } from "@/lib/console/bff/action";
import { SessionList } from "./session-list";

/** The Account page's sessions: where the person is signed in now, and signing the others out. */
export function SessionsSection({ sessions }: { sessions: SessionSummary[] }) {
  const others = useFormAction<ActionState>(endOtherSessionsAction, {});
  const hasOthers = sessions.some((session) => !session.current);
  return (
    <section aria-labelledby="sessions-heading" className="flex max-w-2xl flex-col gap-4" id="sessions">
      <div>
        <h2 id="sessions-heading" className="text-lg font-semibold tracking-tight">
          Signed-in sessions
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Where you are signed in now. A session you sign out here is signed out on its next page or request.
        </p>
      </div>
      <SessionList sessions={sessions} endAction={endOwnSessionAction} label="Your sessions" />
      <form action={others.action} onSubmit={others.onSubmit} className="flex flex-col items-start gap-2">
        <DrawnForField />
        <ActionOutcome state={others.state} />
        {hasOthers && (
          <Button type="submit" loading={others.pending}>
            Sign out everywhere else
          </Button>
        )}
      </form>
    </section>
  );
}
