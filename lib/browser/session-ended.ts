import { signInAgainHref } from "@/lib/contract/sign-in-again-href";

/**
 * The one answer to a 401 in the browser: the session ended mid-work. The console layout mounts one
 * sign-in-again dialog (components/auth/lazy-sign-in-again.tsx registers it here), so a change asks to sign in
 * again in place and then completes (./action.ts: runAction and useFormAction send it once more); nothing typed
 * is lost. Anywhere else the person is sent to sign in and back to exactly this view (`/login?next=…&ended=1`).
 * Every refused answer a page reads passes here: a console route's (./query/fetch-json.ts: fetchJson and
 * readProblem) and a server action's (./action.ts).
 */
export function signInIfSessionEnded(problem: { status?: number }): void {
  if (problem.status !== 401 || typeof window === "undefined") return;
  // Already there (a request of the page just left answered late): the sign-in page keeps its own `next`.
  if (window.location.pathname === "/login") return;
  // A read (the rates strip's refresh, a card) that meets the ended session while the dialog is mounted asks in
  // place, so a form being typed on the page is not thrown away; once the person said "Not now", reads stop
  // asking (a change still asks when it is sent).
  if (prompt) {
    if (!readsDeclined)
      void signInAgain().then((outcome) => {
        readsDeclined = outcome.signedInAs === null;
      });
    return;
  }
  window.location.assign(signInAgainHref(window.location.pathname + window.location.search));
}

let readsDeclined = false;

/**
 * How signing in again in place ended: signed in (as whom: ./action.ts sends the change once more only for the
 * person it was drawn for), or not, with the sentence that says why the change was not sent. The draft stays.
 */
export type SignInAgainOutcome = { signedInAs: string } | { signedInAs: null; whyNotSent: string };

/** Opens the in-place dialog; resolves once the person signed in again or closed it. */
export type SignInAgainPrompt = () => Promise<SignInAgainOutcome>;

// The console layout mounts one dialog: while mounted, it is the one that asks.
let prompt: SignInAgainPrompt | null = null;

/** The mounted sign-in-again dialog offers itself; the returned function withdraws it. */
export function registerSignInAgain(offered: SignInAgainPrompt): () => void {
  prompt = offered;
  readsDeclined = false;
  return () => {
    if (prompt === offered) prompt = null;
  };
}

// One dialog at a time: changes refused together wait for the same sign-in.
let asking: Promise<SignInAgainOutcome> | null = null;

export const NOT_SIGNED_IN = "You did not sign in again, so your change was not sent. Everything you typed is still here.";

/**
 * After a 401: signs in again in place when the dialog is mounted; without it, off to the sign-in page (and the
 * change is not sent).
 */
export async function signInAgain(): Promise<SignInAgainOutcome> {
  if (!prompt) {
    signInIfSessionEnded({ status: 401 });
    return { signedInAs: null, whyNotSent: NOT_SIGNED_IN };
  }
  asking ??= prompt().finally(() => {
    asking = null;
  });
  return asking;
}
