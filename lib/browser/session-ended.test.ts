import { afterEach, describe, expect, it } from "vitest";
import { registerSignInAgain, type SignInAgainOutcome, signInAgain, signInIfSessionEnded } from "./session-ended";

const mounted: (() => void)[] = [];
afterEach(() => {
  for (const withdraw of mounted.splice(0)) withdraw();
});

/** The dialog, answering when told to and counting how often it was asked; withdrawn after each test. */
function dialog() {
  let answer: (outcome: SignInAgainOutcome) => void = () => undefined;
  const asked = { times: 0 };
  mounted.push(
    registerSignInAgain(() => {
      asked.times++;
      return new Promise((resolve) => {
        answer = resolve;
      });
    }),
  );
  return { asked, answer: (outcome: SignInAgainOutcome) => answer(outcome) };
}

describe("signing in again in place", () => {
  it("asks once for changes refused together, and each gets the same outcome", async () => {
    const shown = dialog();
    const first = signInAgain();
    const second = signInAgain();
    shown.answer({ signedInAs: "admin@example.com" });
    expect(await first).toEqual({ signedInAs: "admin@example.com" });
    expect(await second).toEqual({ signedInAs: "admin@example.com" });
    expect(shown.asked.times).toBe(1);
  });

  it("passes on why a change was not sent (closed), and asks afresh next time", async () => {
    const shown = dialog();
    const refused = signInAgain();
    shown.answer({ signedInAs: null, whyNotSent: "You did not sign in again." });
    expect(await refused).toEqual({ signedInAs: null, whyNotSent: "You did not sign in again." });
    const again = signInAgain();
    shown.answer({ signedInAs: "admin@example.com" });
    expect(await again).toEqual({ signedInAs: "admin@example.com" });
    expect(shown.asked.times).toBe(2);
  });

  it("without a dialog, does not send the change (the person is sent to sign in)", async () => {
    expect(await signInAgain()).toMatchObject({ signedInAs: null, whyNotSent: expect.stringContaining("not sent") });
  });

  it("once withdrawn, the dialog is not asked", async () => {
    const shown = dialog();
    for (const withdraw of mounted.splice(0)) withdraw();
    expect(await signInAgain()).toMatchObject({ signedInAs: null });
    expect(shown.asked.times).toBe(0);
  });

  it("a read refused with 401 asks in place instead of leaving the page, and stops asking after 'Not now'", async () => {
    const assigned: string[] = [];
    const window = { location: { pathname: "/invoices/inv_1", search: "", assign: (to: string) => assigned.push(to) } };
    Object.assign(globalThis, { window });
    try {
      const shown = dialog();
      signInIfSessionEnded({ status: 401 });
      signInIfSessionEnded({ status: 401 });
      expect(shown.asked.times).toBe(1);
      shown.answer({ signedInAs: null, whyNotSent: "You did not sign in again." });
      await new Promise((resolve) => setTimeout(resolve, 0));
      signInIfSessionEnded({ status: 401 });
      expect(shown.asked.times).toBe(1);
      expect(assigned).toEqual([]);
      // Without the dialog, off to sign in and back here.
      for (const withdraw of mounted.splice(0)) withdraw();
      signInIfSessionEnded({ status: 401 });
      expect(assigned).toEqual(["/login?next=%2Finvoices%2Finv_1&ended=1"]);
    } finally {
      Reflect.deleteProperty(globalThis, "window");
    }
  });
});
