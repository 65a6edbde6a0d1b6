import { unstable_rethrow } from "next/navigation";
import { type FormEvent, startTransition, useActionState, useRef, useState, useTransition } from "react";
import { IN_PLACE_FIELD } from "@/lib/contract/drawn-for";
import { Problem, type ProblemData } from "@/lib/contract/problem";
import { type PagePerson, pagePerson, sendFor, usePagePerson } from "./page-person";
import { signInAgain } from "./session-ended";

/**
 * How a page changes something: a server action (lib/console/…/actions.ts, made by guardedAction, which checks
 * the session and the permission before anything else). A plain form runs it through `useFormAction`
 * (`useActionState` for the form that posts before the page's scripts have loaded or without them; with them
 * the form's submit sends it here); a control that needs script anyway (a confirmation dialog) awaits it with
 * `runAction`. Either way a failure is a Problem again, and the action itself refreshes what the page shows
 * (`revalidatePath`, or the caller's `router.refresh()`). Every change is sent for the person its page was drawn
 * for (lib/contract/drawn-for.ts: the server refuses it for anyone else). A 401 (the session ended) asks to sign
 * in again in place (the console layout's one dialog, lib/browser/session-ended.ts), then the same change is
 * sent once more, so nothing typed is lost; closed, signed in as someone else, or refused again, the change is
 * not sent and stays as typed, saying so (ARCHITECTURE.md, "An ended session never loses work").
 */

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
const notSent = (problem: Problem, whyNotSent: string) => problem.with({ title: "Your change was not sent", detail: whyNotSent });

export const ENDED_AGAIN = "Your session ended again before your change arrived, so it was not sent. Everything you typed is still here.";
const signedInAsOther = (email: string) => `Signed in as ${email} — your change was not sent; check it and send it again.`;

/** How one change went: its answer, or its problem; `reached` is false when nothing arrived or it was not resent. */
export type Sent<A> = { answer: A | null; problem: Problem | null; reached: boolean };

/**
 * Sends one change for `person` (who the page was drawn for, captured when it was sent). After a 401 — the guard
 * checks the session before anything else, so nothing changed — signs in again in place and sends the same form
 * once more, only if `person` signed in; a second 401 is not answered by asking again.
 */
export async function sendChange<A extends object>(
  send: (form: FormData) => Promise<A>,
  form: FormData,
  person: PagePerson | null,
  onSigningIn?: () => void,
): Promise<Sent<A>> {
  sendFor(form, person);
  form.set(IN_PLACE_FIELD, "1");
  const attempt = async (): Promise<Sent<A>> => {
    try {
      const answer = await send(form);
      return { answer, problem: actionProblem(answer as Answer), reached: true };
    } catch (error) {
      // A redirect or notFound() passes on to Next.js; anything else (offline, a new deployment) is no answer.
      unstable_rethrow(error);
      return { answer: null, problem: unreachable(), reached: false };
    }
  };
  const first = await attempt();
  if (first.problem?.status !== 401) return first;
  onSigningIn?.();
  const outcome = await signInAgain();
  if (outcome.signedInAs === null) return { ...first, problem: notSent(first.problem, outcome.whyNotSent), reached: false };
  if (person && outcome.signedInAs.toLowerCase() !== person.email.toLowerCase()) {
    return { ...first, problem: notSent(first.problem, signedInAsOther(outcome.signedInAs)), reached: false };
  }
  const again = await attempt();
  if (again.problem?.status === 401) return { ...again, problem: notSent(again.problem, ENDED_AGAIN), reached: false };
  return again;
}

/** Runs a server action and waits for it: its answer, or its failure as a Problem (no answer at all: status 0). */
export async function runAction<T extends object>(
  action: (form: FormData) => Promise<T>,
  form: FormData,
): Promise<{ answer: Exclude<T, Failure>; problem: null } | { answer: null; problem: Problem }> {
  const { answer, problem } = await sendChange(action, form, pagePerson());
  if (!problem && answer) return { answer: answer as Exclude<T, Failure>, problem: null };
  return { answer: null, problem: problem ?? unreachable() };
}

type Handlers<S> = { ok?: (answer: S) => void | Promise<void>; failed?: (problem: Problem) => void };

/**
 * A form's server action: put `action` and `onSubmit` on the `<form>`. Without script the form posts to the
 * action itself (`useActionState`, whose answer `state` shows). With script `onSubmit` sends it through
 * `sendChange`: the form keeps everything typed (the browser reads it; React's reset after a form action never
 * runs), a 401 signs in again in place and sends the same form once more, and no answer at all (offline, a new
 * deployment) is a network_error problem, never the error page. One change at a time: a submit while one is
 * sent or signing in is ignored. `state` is the latest answer, or, for a change not sent, the previous one saying
 * why (keeping its `answeredAt`, so a form keyed by it keeps what was typed). `sent` counts the answers that
 * succeeded: a form keyed by it starts empty after each. `handlers` see each answer once.
 */
export function useFormAction<S extends Answer>(
  serverAction: (state: Awaited<S>, form: FormData) => S | Promise<S>,
  initial: Awaited<S>,
  handlers: Handlers<Awaited<S>> = {},
) {
  const [posted, action] = useActionState<S, FormData>(serverAction, initial);
  const [answered, setAnswered] = useState<Awaited<S> | null>(null);
  const [pending, startSending] = useTransition();
  const [sent, setSent] = useState(0);
  const sending = useRef(false);
  const person = usePagePerson();
  const state = answered ?? posted;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (event.defaultPrevented) return;
    event.preventDefault();
    if (sending.current) return;
    sending.current = true;
    const form = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    const previous = state;
    startSending(async () => {
      const result = await sendChange(async (f): Promise<Awaited<S>> => (await serverAction(previous, f)) as Awaited<S>, form, person);
      sending.current = false;
      const { answer, problem } = result;
      startTransition(() => {
        if (problem) {
          setAnswered(result.reached && answer ? answer : (withProblem(previous as Answer, problem) as Awaited<S>));
          handlers.failed?.(problem);
        } else if (answer) {
          setAnswered(answer);
          setSent((n) => n + 1);
          void handlers.ok?.(answer);
        }
      });
    });
  }

  return { state, action, onSubmit, pending, sent };
}

/** The previous answer, now saying why this change was not sent. */
function withProblem<S extends Answer>(previous: S, problem: Problem): S {
  const { status, code, title, detail } = problem;
  return { ...previous, ok: undefined, fieldErrors: undefined, error: detail ?? title, problem: { status, code, title, detail } };
}
