import { describe, expect, it } from "vitest";
import { registerSignInAgain, type SignInAgainOutcome, signInAgain } from "./session-ended";

/** A dialog that answers when told to, counting how often it was asked. */
function dialog() {
  let answer: (outcome: SignInAgainOutcome) => void = () => undefined;
  const asked = { times: 0 };
  const withdraw = registerSignInAgain(() => {
    asked.times++;
    return new Promise((resolve) => {
      answer = resolve;
    });
  });
  return { asked, answer: (outcome: SignInAgainOutcome) => answer(outcome), withdraw };
}

describe("signing in again in place", () => {
  it("asks once for changes refused together, and each gets the same outcome", async () => {
    const mounted = dialog();
    const first = signInAgain();
    const second = signInAgain();
    mounted.answer({ resend: true });
    expect(await first).toEqual({ resend: true });
    expect(await second).toEqual({ resend: true });
    expect(mounted.asked.times).toBe(1);
    mounted.withdraw();
  });

  it("passes on why a change was not sent (someone else signed in), and asks afresh next time", async () => {
    const mounted = dialog();
    const refused = signInAgain();
    mounted.answer({ resend: false, notSent: "Signed in as admin@example.com — your change was not sent; check it and send it again." });
    expect(await refused).toMatchObject({ resend: false, notSent: expect.stringContaining("admin@example.com") });
    const again = signInAgain();
    mounted.answer({ resend: true });
    expect(await again).toEqual({ resend: true });
    expect(mounted.asked.times).toBe(2);
    mounted.withdraw();
  });

  it("without a dialog, does not send the change (the person is sent to sign in)", async () => {
    expect(await signInAgain()).toMatchObject({ resend: false, notSent: expect.stringContaining("not sent") });
  });
});
