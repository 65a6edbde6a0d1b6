"use client";

import { SessionList } from "@/components/account/session-list";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { endUserSessionAction } from "@/lib/console/auth/session-actions";
import type { SessionSummary } from "@/lib/console/auth/sessions";

export type PersonSessions = { id: string; name: string; email: string; sessions: SessionSummary[] };

/**
 * Admins: everyone's signed-in sessions, one disclosure a person (a native <details>, so it opens without
 * script and says its state to screen readers), each session with Sign out.
 */
export function UserSessions({ people }: { people: PersonSessions[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="user-sessions-heading">Signed-in sessions</CardTitle>
        <CardDescription>
          Who is signed in where. A session signed out here ends on its next page or request; disabling a person ends all of theirs.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {people.length === 0 && <p className="text-sm text-muted-foreground">Nobody is signed in.</p>}
        {people.map((person) => (
          <details key={person.id} id={`sessions-${person.id}`} className="rounded-md border border-border" data-testid="user-sessions">
            <summary className="cursor-pointer px-3 py-2 text-sm">
              <span className="font-medium">
                <bdi>{person.name}</bdi>
              </span>{" "}
              <span className="break-all text-muted-foreground">{person.email}</span> — Sessions ({person.sessions.length})
            </summary>
            <div className="border-t border-border p-3">
              <SessionList sessions={person.sessions} endAction={endUserSessionAction} label={`Sessions of ${person.email}`} />
            </div>
          </details>
        ))}
      </CardContent>
    </Card>
  );
}
