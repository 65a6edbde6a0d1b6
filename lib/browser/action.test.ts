import { afterEach, describe, expect, it } from "vitest";
import { DRAWN_FOR_FIELD, IN_PLACE_FIELD } from "@/lib/contract/drawn-for";
import { ENDED_AGAIN, runAction, sendChange } from "./action";
import { NOT_SIGNED_IN, registerSignInAgain, type SignInAgainOutcome } from "./session-ended";

/**
 * The part of runAction and useFormAction that decides whether a change is sent again (sendChange; both use it):
 * once after a 401 and signing in as the person it was sent for, never otherwise. React's part of useFormAction
 * (its state) needs a DOM this project's tests do not run; e2e/session-expiry.spec.ts drives it in a browser.
 */
const ME = { id: "user-me", email: "me@example.com" };
const ENDED = { error: "Sign in", problem: { status: 401, code: "unauthenticated", title: "Sign in to continue" } };
const FORBIDDEN = { error: "No", problem: { status: 403, code: "forbidden", title: "Your role does not allow this" } };
const DONE = { ok: "Saved", answeredAt: 1 };

const withdrawals: (() => void)[] = [];
afterEach(() => {
  for (const withdraw of withdrawals.splice(0)) withdraw();
});

/** The layout's dialog, answering `outcome` each time it is asked. */
function dialog(outcome: SignInAgainOutcome) {
  const asked = { times: 0 };
  withdrawals.push(
    registerSignInAgain(async () => {
      asked.times++;
      return outcome;
    }),
  );
  return asked;
}

/** A server action answering `answers` in turn (an Error: it throws), keeping each form it was sent. */
function action(...answers: (object | Error)[]) {
  const forms: FormData[] = [];
  const send = async (form: FormData) => {
    forms.push(form);
    const answer = answers[forms.length - 1];
    if (answer instanceof Error) throw answer;
    return answer as Record<string, unknown>;
  };
  return { send, forms };
}

const typed = () => {
  const form = new FormData();
  form.set("reason", "customer asked");
  return form;
};

describe("sending a change", () => {
  it("sends it for the person the page was drawn for, signing in in place", async () => {
    const { send, forms } = action(DONE);
    await sendChange(send, typed(), ME);
    expect(forms[0]?.get(DRAWN_FOR_FIELD)).toBe(ME.id);
    expect(forms[0]?.get(IN_PLACE_FIELD)).toBe("1");
  });

  it("after a 401 and signing in again as the same person, sends the same form exactly once more", async () => {
    const asked = dialog({ signedInAs: "Me@example.com" });
    const { send, forms } = action(ENDED, DONE);
    const sent = await sendChange(send, typed(), ME);
    expect(sent).toEqual({ answer: DONE, problem: null, reached: true });
    expect(forms).toHaveLength(2);
    expect(forms[1]).toBe(forms[0]);
    expect(forms[1]?.get("reason")).toBe("customer asked");
    expect(asked.times).toBe(1);
  });

  it("never resends after a refusal other than a 401", async () => {
    const asked = dialog({ signedInAs: ME.email });
    const { send, forms } = action(FORBIDDEN, DONE);
    const sent = await sendChange(send, typed(), ME);
    expect(sent.problem?.status).toBe(403);
    expect(forms).toHaveLength(1);
    expect(asked.times).toBe(0);
  });

  it("never resends when no answer came (status 0), and says the console cannot be reached instead of throwing", async () => {
    const asked = dialog({ signedInAs: ME.email });
    const { send, forms } = action(new TypeError("Failed to fetch"), DONE);
    const sent = await sendChange(send, typed(), ME);
    expect(sent).toMatchObject({ answer: null, reached: false, problem: { status: 0, code: "network_error" } });
    expect(forms).toHaveLength(1);
    expect(asked.times).toBe(0);
  });

  it("never resends for another person: not sent, saying who signed in", async () => {
    dialog({ signedInAs: "admin@example.com" });
    const { send, forms } = action(ENDED, DONE);
    const sent = await sendChange(send, typed(), ME);
    expect(forms).toHaveLength(1);
    expect(sent).toMatchObject({ reached: false, problem: { status: 401, title: "Your change was not sent" } });
    expect(sent.problem?.detail).toContain("Signed in as admin@example.com");
  });

  it("does not resend when the dialog was closed, saying why", async () => {
    dialog({ signedInAs: null, whyNotSent: NOT_SIGNED_IN });
    const { send, forms } = action(ENDED, DONE);
    const sent = await sendChange(send, typed(), ME);
    expect(forms).toHaveLength(1);
    expect(sent.problem?.detail).toBe(NOT_SIGNED_IN);
  });

  it("a second 401 after the resend is not asked again: the change is not sent, and the page stays", async () => {
    const asked = dialog({ signedInAs: ME.email });
    const { send, forms } = action(ENDED, ENDED, DONE);
    const sent = await sendChange(send, typed(), ME);
    expect(forms).toHaveLength(2);
    expect(asked.times).toBe(1);
    expect(sent).toMatchObject({ reached: false, problem: { status: 401, detail: ENDED_AGAIN } });
  });
});

describe("runAction", () => {
  it("answers a failure as a Problem and a success as the answer", async () => {
    expect(await runAction(action(FORBIDDEN).send, typed())).toMatchObject({ answer: null, problem: { status: 403 } });
    expect(await runAction(action(DONE).send, typed())).toEqual({ answer: DONE, problem: null });
  });
});
