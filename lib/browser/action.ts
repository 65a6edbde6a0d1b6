import { useEffect, useEffectEvent, useRef } from "react";
import { type FieldError, Problem } from "@/lib/contract/problem";
import { signInAgain, signInIfSessionEnded } from "./session-ended";

/**
 * How a page changes something: a server action (lib/console/…/actions.ts, made by guardedAction, which checks
 * the session and the permission before anything else), run by a form through `useActionState`. A form that
 * passes the action itself to `useActionState` submits even before the page's scripts have loaded; its answer
 * is then read here once, after it arrives (`useActionAnswer`). A control that needs script anyway (a
 * confirmation dialog) awaits the action with `runAction`. Either way a failure is a Problem again, and a change
 * the page caches is followed by the caller's invalidation of its TanStack queries. A 401 (the session ended)
 * asks to sign in again in place where the page mounts that dialog, then `runAction` runs the same change once
 * more, so nothing typed is lost; elsewhere it sends the person to sign in (lib/browser/session-ended.ts).
 */

/** A failed action's problem as it crossed to the browser (lib/console/bff/action.ts, ActionProblem). */
type ProblemData = { status: number; code: string; title: string; detail?: string; errors?: FieldError[] };
type Answer = { problem?: ProblemData; answeredAt?: number };
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
  if (problem?.status === 401 && (await signInAgain())) {
    answer = await attempt();
    problem = answer ? actionProblem(answer as Answer) : unreachable();
    if (problem?.status === 401) signInIfSessionEnded(problem);
  }
  if (!problem && answer) return { answer: answer as Exclude<T, Failure>, problem: null };
  return { answer: null, problem: problem ?? unreachable() };
}

/**
 * Reads the answer of a form's `useActionState` once it arrives (each answer carries its own `answeredAt`): `ok`
 * or `failed` with the Problem, after a 401 has sent the person to sign in.
 */
export function useActionAnswer<T extends Answer>(
  state: T,
  handlers: { ok?: (answer: T) => void | Promise<void>; failed?: (problem: Problem) => void },
): void {
  const seen = useRef(state.answeredAt);
  const answered = useEffectEvent((answer: T) => {
    const problem = actionProblem(answer);
    if (problem) {
      signInIfSessionEnded(problem);
      handlers.failed?.(problem);
    } else void handlers.ok?.(answer);
  });
  useEffect(() => {
    if (state.answeredAt === undefined || state.answeredAt === seen.current) return;
    seen.current = state.answeredAt;
    answered(state);
  }, [state]);
}
