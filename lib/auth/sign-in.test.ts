import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS } from "./sign-in-limiter";
import { signInWithPassword } from "./sign-in";
import { addUser } from "./users";

const PASSWORD = "correct horse battery";
const from = (address: string) => new Headers({ "x-forwarded-for": address });

beforeAll(async () => {
  const db = await getDatabase();
  for (const name of ["ana", "ben", "cy"]) {
    await addUser(db, { email: `${name}@limits.test`, name, role: "viewer", password: PASSWORD }, "system");
  }
});

describe("signInWithPassword", () => {
  it("names each empty field", async () => {
    const result = await signInWithPassword({ email: " ", password: "" }, from("10.0.0.1"));
    expect(result).toMatchObject({ ok: false, fieldErrors: { email: "Enter your email address.", password: "Enter your password." } });
  });

  it("answers a wrong password and an unknown email with the same words", async () => {
    const wrong = await signInWithPassword({ email: "ana@limits.test", password: "nope-nope" }, from("10.0.0.2"));
    const unknown = await signInWithPassword({ email: "zed@limits.test", password: "nope-nope" }, from("10.0.0.2"));
    expect(wrong).toEqual(unknown);
    expect(wrong).toMatchObject({ ok: false, error: expect.stringContaining("do not match an account") });
  });

  it("signs in with the right password, whatever the email's letter case", async () => {
    expect(await signInWithPassword({ email: " Ana@Limits.TEST ", password: PASSWORD }, from("10.0.0.3"))).toEqual({ ok: true });
  });

  it(`pauses an account after ${MAX_FAILURES_PER_ACCOUNT} failures, even with the right password, from any address`, async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      await signInWithPassword({ email: "ben@limits.test", password: `wrong-${i}` }, from(`10.1.0.${i}`));
    }
    const result = await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, from("10.1.1.1"));
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many failed attempts for this account\. Try again in 15 minutes/) });
  });

  it(`pauses an address after ${MAX_FAILURES_PER_ADDRESS} failures across accounts`, async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      await signInWithPassword({ email: `guess-${i}@limits.test`, password: "nope-nope" }, from("10.2.0.1"));
    }
    const blocked = await signInWithPassword({ email: "cy@limits.test", password: PASSWORD }, from("10.2.0.1"));
    expect(blocked).toMatchObject({ ok: false, error: expect.stringContaining("from your network") });
    expect(await signInWithPassword({ email: "cy@limits.test", password: PASSWORD }, from("10.2.0.2"))).toEqual({ ok: true });
  });
});
