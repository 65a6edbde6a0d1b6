/**
 * The one answer to a 401 in the browser: the session ended mid-work, so sign in again and come back to exactly
 * this view (`/login?next=`). Every refused answer a page reads passes here: a console route's
 * (./query/fetch-json.ts: fetchJson and readProblem) and a server action's (./action.ts: runAction and
 * useActionAnswer).
 */
export function signInIfSessionEnded(problem: { status?: number }): void {
  if (problem.status !== 401 || typeof window === "undefined") return;
  window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
}
