import "server-only";
import { headers } from "next/headers";
import { redirect, unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { drawnForSomeoneElse, secondFactorRequired, unauthenticated } from "@/lib/console/auth/errors";
import { currentUser, type SessionUser, sessionUser } from "@/lib/console/auth/session";
import { DRAWN_FOR_FIELD, IN_PLACE_FIELD } from "@/lib/contract/drawn-for";
import { Problem, type ProblemData, problemDetail, toProblem } from "@/lib/contract/problem";
import { problemToFields } from "@/lib/contract/problem-to-fields";
import { can, type Permission } from "@/lib/contract/roles";
import { signInAgainHref } from "@/lib/contract/sign-in-again-href";
import { type RefusedAttempt, refusal } from "./refusal";

/**
 * Who may run an action: a permission, any signed-in person, or anyone (signing in). "second-factor-setup" is any
 * signed-in person, even one whose role needs a second factor they have not set up yet: the set-up's own steps.
 */
export type ActionAccess = Permission | "signed-in" | "second-factor-setup" | "public";

/**
 * What a form's action answers, for `useActionState`: a success sentence, or an error with the fields it names
 * and what was typed (never a password), so the form comes back filled in, and the problem itself for a page
 * that says more (lib/browser/action.ts makes it a Problem again; a 401 sends the person to sign in).
 * `answeredAt` changes with every answer, so a form keyed by it remounts with `values` as its defaults.
 */
export type ActionState = {
  ok?: string;
  error?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
  problem?: ProblemData;
  answeredAt?: number;
};
type ActionFailure = Required<Pick<ActionState, "error" | "fieldErrors" | "values" | "problem" | "answeredAt">>;

type ActionOptions = {
  /** For a change whose refusal (the role lacks the permission) is itself worth an audit entry, as `bffRoute`'s. */
  auditRefusal?: (fields: Record<string, string>) => Promise<RefusedAttempt>;
  /**
   * For a form that also posts without script: where its draft lives, as a page path whose query
   * holds what was typed (never a password). When the session has ended, the person is sent to sign in and back
   * there, so the page comes back filled in; with script, runAction signs in again in place instead.
   */
  draftPath?: (fields: Record<string, string>) => string;
};

type Guarded = { readonly access: ActionAccess };
const ACCESS = Symbol.for("invoice-console.action-access");

/**
 * The one wrapper around every server action, as `bffRoute` is for API routes: the session is verified and
 * the permission checked before anything else, then the form is read with a contract schema, then `run`. A
 * change sent for someone other than the person signed in now (its page was drawn for them: another tab has
 * signed in since, lib/contract/drawn-for.ts) is refused with a 409 before the permission is checked.
 * The form is the action's last argument, so it serves both `<form action>` and `useActionState`. A problem
 * (including a refused permission or a broken rule) comes back as an `ActionFailure` naming the fields;
 * redirects pass through.
 */
export function guardedAction<S extends z.ZodType, R>(
  access: ActionAccess,
  schema: S,
  run: (input: z.output<S>, user: SessionUser | null) => Promise<R>,
  options: ActionOptions = {},
): ((...args: [...unknown[], FormData]) => Promise<R | ActionFailure>) & Guarded {
  const action = async (...args: [...unknown[], FormData]): Promise<R | ActionFailure> => {
    const form = args.at(-1);
    const { [DRAWN_FOR_FIELD]: drawnFor, [IN_PLACE_FIELD]: inPlace, ...fields } = form instanceof FormData ? formFields(form) : {};
    try {
      const { auditRefusal } = options;
      const user =
        access === "public" ? await actionUser() : await requireAccess(access, drawnFor, auditRefusal && (() => auditRefusal(fields)));
      const parsed = schema.safeParse(fields);
      if (!parsed.success) throw Problem.fromZod(parsed.error, "form");
      return await run(parsed.data, user);
    } catch (error) {
      unstable_rethrow(error);
      const problem = toProblem(error);
      if (problem.status === 401 && options.draftPath && !inPlace) redirect(signInKeepingDraft(options.draftPath(fields)));
      return failure(problem, fields);
    }
  };
  return Object.assign(action, { access, [ACCESS]: true }) as typeof action & Guarded;
}

/**
 * Off to sign in and back to the form with its draft. The draft travels in the URL, so one past what proxies
 * and the front door accept in a request line (8 KB is common) is left behind rather than making the way back
 * fail: the person comes back to the empty form, told that their session ended.
 */
export function signInKeepingDraft(draftPath: string): string {
  const withDraft = signInAgainHref(draftPath, "draft");
  if (withDraft.length <= DRAFT_URL_MAX) return withDraft;
  return signInAgainHref(draftPath.split("?")[0]);
}
const DRAFT_URL_MAX = 4096;

/**
 * The same guard for a plain `<form action>` that answers nothing but a redirect (signing out): a failure is
 * thrown, for the page's error boundary, since no form state can show it.
 */
export function guardedFormAction<S extends z.ZodType>(
  access: ActionAccess,
  schema: S,
  run: (input: z.output<S>, user: SessionUser | null) => Promise<void>,
): ((form: FormData) => Promise<void>) & Guarded {
  const action = async (form: FormData): Promise<void> => {
    const user = access === "public" ? await currentUser() : await requireAccess(access, formFields(form)[DRAWN_FOR_FIELD]);
    const parsed = schema.safeParse(formFields(form));
    if (!parsed.success) throw Problem.fromZod(parsed.error, "form");
    await run(parsed.data, user);
  };
  return Object.assign(action, { access, [ACCESS]: true }) as typeof action & Guarded;
}

/** Whether a server action was made by `guardedAction` (the action-access test reads it). */
export function isGuardedAction(value: unknown): value is Guarded {
  return typeof value === "function" && ACCESS in value;
}

/**
 * The person running an action, or null. A session that has ended (no such session, or past its expiry) is
 * answered here without asking better-auth, which would also clear the cookie: a server action that changes a
 * cookie makes Next.js draw the page again in its answer, and that page, signed out, would send the person to
 * the sign-in page before the action's 401 reached the page, losing what they typed. The 401 lets the page
 * sign in again in place instead (lib/browser/action.ts). One session read answers the action itself; a page
 * drawn again in its answer (`revalidatePath`) reads it once more for its layout (`currentUser`), since React's
 * `cache` does not span the action and that render.
 */
async function actionUser(): Promise<SessionUser | null> {
  return sessionUser(await headers(), { endedIsNull: true });
}

async function requireAccess(
  access: Exclude<ActionAccess, "public">,
  drawnFor?: string,
  attempt?: () => Promise<RefusedAttempt>,
): Promise<SessionUser> {
  const user = await actionUser();
  if (!user) throw unauthenticated();
  // A form that names no one (posted before the page's scripts ran, or by a test) is the signed-in person's.
  if (drawnFor && drawnFor !== user.id) throw drawnForSomeoneElse(user);
  if (user.needsSecondFactor && access !== "second-factor-setup") throw secondFactorRequired();
  if (access === "signed-in" || access === "second-factor-setup") return user;
  if (!can(user.role, access)) throw await refusal(user, access, attempt);
  return user;
}

function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && !key.startsWith("$ACTION") && !(key in fields)) fields[key] = value;
  return fields;
}

function failure(problem: Problem, fields: Record<string, string>): ActionFailure {
  const fieldErrors = problemToFields(problem).fields;
  const values = Object.fromEntries(Object.entries(fields).filter(([key]) => !/password/i.test(key)));
  const invalid = Object.keys(fieldErrors).length > 0;
  return {
    error: invalid ? "Check the highlighted fields." : problemDetail(problem),
    fieldErrors,
    values,
    problem: {
      status: problem.status,
      code: problem.code,
      title: problem.title,
      ...(problem.detail ? { detail: problem.detail } : {}),
      ...(problem.errors ? { errors: problem.errors } : {}),
    },
    answeredAt: Date.now(),
  };
}
