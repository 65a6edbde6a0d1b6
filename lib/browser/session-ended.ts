/**
 * The one answer to a 401 in the browser: the session ended mid-work. Where a page mounts the sign-in-again
 * dialog (components/auth/sign-in-again.tsx registers itself here), a change asks to sign in again in place and
 * then completes (./action.ts, runAction, retries it once); nothing typed is lost. Anywhere else the person is
 * sent to sign in and back to exactly this view (`/login?next=…&ended=1`). Every refused answer a page reads
 * passes here: a console route's (./query/fetch-json.ts: fetchJson and readProblem) and a server action's
 * (./action.ts: runAction and useActionAnswer).
 */
export function signInIfSessionEnded(problem: { status?: number }): void {
  if (problem.status !== 401 || typeof window === "undefined") return;
  // Already there (a request of the page just left answered late): the sign-in page keeps its own `next`.
  if (window.location.pathname === "/login") return;
  window.location.assign(signInAgainHref(window.location.pathname + window.location.search));
}

/** The sign-in page that brings the person back to `path`, saying that their session ended. */
export function signInAgainHref(path: string): string {
  return `/login?next=${encodeURIComponent(path)}&ended=1`;
}

/** Opens the in-place dialog; resolves true once the person signed in again, false if they closed it. */
export type SignInAgainPrompt = () => Promise<boolean>;

// The dialogs mounted now, the latest last: it is the one that asks.
const prompts: SignInAgainPrompt[] = [];

/** A mounted sign-in-again dialog offers itself; the returned function withdraws it. */
export function registerSignInAgain(prompt: SignInAgainPrompt): () => void {
  prompts.push(prompt);
  return () => {
    const at = prompts.lastIndexOf(prompt);
    if (at >= 0) prompts.splice(at, 1);
  };
}

// One dialog at a time: changes refused together wait for the same sign-in.
let asking: Promise<boolean> | null = null;

/**
 * After a 401: signs in again in place when a dialog is mounted (true once signed in, false if the person
 * closed it); without one, off to the sign-in page (and never resolves true).
 */
export async function signInAgain(): Promise<boolean> {
  const prompt = prompts.at(-1);
  if (!prompt) {
    signInIfSessionEnded({ status: 401 });
    return false;
  }
  asking ??= prompt().finally(() => {
    asking = null;
  });
  return asking;
}
