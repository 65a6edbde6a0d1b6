import { type FormEvent, startTransition, useActionState, useEffect, useEffectEvent, useRef, useState } from "react";
import { type FieldError, Problem } from "@/lib/contract/problem";
import { signInAgain, signInIfSessionEnded } from "./session-ended";

/**
 * How a page changes something: a server action (lib/console/…/actions.ts, made by guardedAction, which checks
 * the session and the permission before anything else). A plain form runs it through `useFormAction`
 * (`useActionState`: the form submits even before the page's scripts have loaded, and its answer is read here
 * once it arrives); a control that needs script anyway (a confirmation dialog) awaits it with `runAction`.
 * Either way a failure is a Problem again, and the action itself refreshes what the page shows
 * (`revalidatePath`, or the caller's `router.refresh()`). A 401 (the session ended) asks to sign in again in
 * place (the console layout's one dialog, lib/browser/session-ended.ts), then the same change is sent once
 * more, so nothing typed is lost; closed, or signed in as someone else, the change is not sent and stays as
 * typed, saying so (ARCHITECTURE.md, "An ended session never loses work").
 */

/** A failed action's problem as it crossed to the browser (lib/console/bff/action.ts, ActionProblem). */
type ProblemData = { status: number; code: string; title: string; detail?: string; errors?: FieldError[] };
type Answer = { problem?: ProblemData; answeredAt?: number; error?: string };
type Failure = { error: string; problem: ProblemData };

/** An action's failure as a Problem again, or null when it succeeded. */
export function actionProblem(answer: Answer | undefined): Problem | null {
  return answer?.problem ? new Problem(answer.problem) : null;
}

const unreachable = () =>
  Problem.of("network_error", {
    title: "The console cannot be reached",
    detail: "Check your connection and try again.",
  });

/** The 401 of a change that was not sent after all, saying why. */
const notSent = (problem: ProblemData, why: string): ProblemData => ({ ...problem, title: "Your change was not sent", detail: why });

/** Runs a server action and waits for it: its answer, or its failure as a Problem (no answer at all: status 0). */
export async function runAction<T extends object>(
  action: (form: FormData) => Promise<T>,
  form: FormData,
): Promise<{ answer: Exclude<T, Failure>; problem: null } | { answer: null; problem: Problem }> {
  const attempt = async () => {
    try {
      return await action(form);
    } catch {
      return null;
    }
  };
  let answer = await attempt();
  let problem = answer ? actionProblem(answer as Answer) : unreachable();
  // The guard checks the session before anything else, so a 401 changed nothing: once signed in again, the
  // same change is sent once more.
  if (problem?.status === 401) {
    const outcome = await signInAgain();
    if (!outcome.resend) return { answer: null, problem: new Problem(notSent(problem, outcome.notSent)) };
    answer = await attempt();
    problem = answer ? actionProblem(answer as Answer) : unreachable();
    if (problem?.status === 401) signInIfSessionEnded(problem);
  }
  if (!problem && answer) return { answer: answer as Exclude<T, Failure>, problem: null };
  return { answer: null, problem: problem ?? unreachable() };
}

type Handlers<S> = { ok?: (answer: S) => void | Promise<void>; failed?: (problem: Problem) => void };

/**
 * A form's server action through `useActionState`: put `action` and `onSubmit` on the `<form>`. Without script
 * the form posts to the action itself; with script `onSubmit` keeps what was sent, so an answer of 401 signs in
 * again in place and sends the same form once more. Meanwhile the form keeps everything typed (the browser
 * sends it; React's reset after a form action never runs). `state` is the latest answer, its error replaced
 * while signing in and by why the change was not sent if it was not. `sent` counts the answers that
 * succeeded: a form keyed by it starts empty after each. `handlers` see each answer once.
 */
export function useFormAction<S extends Answer>(
  serverAction: (state: Awaited<S>, form: FormData) => S | Promise<S>,
  initial: Awaited<S>,
  handlers: Handlers<S> = {},
) {
  const [state, action, pending] = useActionState<S, FormData>(serverAction, initial);
  const sentForm = useRef<FormData | null>(null);
  // Signing in again for the latest answer (a 401): still asking, or why its change was not sent.
  const [signingIn, setSigningIn] = useState<{ asking: true } | { asking: false; notSent: string } | null>(null);
  const [sent, setSent] = useState(0);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (event.defaultPrevented) return;
    event.preventDefault();
    const form = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    sentForm.current = form;
    setSigningIn(null);
    startTransition(() => action(form));
  }

  const answered = useEffectEvent(async (answer: S) => {
    const problem = actionProblem(answer);
    const form = sentForm.current;
    sentForm.current = null;
    if (problem?.status === 401 && form) {
      setSigningIn({ asking: true });
      const outcome = await signInAgain();
      // Sent once more, once: a second 401 sends the person to sign in (below).
      if (outcome.resend) return startTransition(() => action(form));
      setSigningIn({ asking: false, notSent: outcome.notSent });
      handlers.failed?.(new Problem(notSent(problem, outcome.notSent)));
      return;
    }
    setSigningIn(null);
    if (problem) {
      signInIfSessionEnded(problem);
      handlers.failed?.(problem);
    } else {
      setSent((n) => n + 1);
      void handlers.ok?.(answer);
    }
  });
  // Each answer is a new object: read each once, never the first state (a page drawn with a posted answer).
  const seen = useRef(state);
  useEffect(() => {
    if (state === seen.current) return;
    seen.current = state;
    void answered(state);
  }, [state]);

  const shown: S =
    signingIn && state.problem?.status === 401
      ? signingIn.asking
        ? { ...state, error: undefined, problem: undefined }
        : { ...state, error: signingIn.notSent, problem: notSent(state.problem, signingIn.notSent) }
      : state;
  return { state: shown, action, onSubmit, pending: pending || signingIn?.asking === true, sent };
}
