import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 12;
// better-auth refuses longer ones (lib/console/auth/server.ts).
export const PASSWORD_MAX_LENGTH = 128;

// Read from the working directory like the migrations (lib/platform/db/client.ts): the server starts in the project.
const LIST = path.join(process.cwd(), "lib/console/auth/common-passwords.txt");
let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(LIST, "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#")),
  );
  return common;
}

/**
 * Why a password someone chose is refused, naming the rule, or null. The fixed demo accounts' password is not
 * chosen and never passes through here. The password itself is never logged nor put in a message.
 */
export function passwordRuleBroken(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (commonPasswords().has(password.toLowerCase())) return "is one of the most common passwords, which are tried first; choose another";
  // NIST SP 800-63B also names repetitive and sequential characters: guessed as early as the common ones, also
  // with a character or two added at either end ("abcdefghijkl1").
  const cores = [0, 1, 2].flatMap((start) =>
    [0, 1, 2].filter((end) => start + end <= 2).map((end) => password.slice(start, password.length - end)),
  );
  if (cores.some(repetitive)) return "repeats a few characters, which is guessed quickly; a few unrelated words make a good one";
  if (cores.some(sequential)) return "is a run of characters in order (abcd…, 1234…), which is guessed quickly; choose another";
  return null;
}

/** Fewer than five different characters, or one piece said again and again ("abcabcabcabc", "passwordpassword"). */
function repetitive(text: string): boolean {
  return new Set(text.toLowerCase()).size < 5 || /^(.+?)\1+$/su.test(text);
}

/** Each character one after the other, up or down ("abcdefghijkl", "987654321098" wrapping past 0). */
function sequential(text: string): boolean {
  const codes = [...text.toLowerCase()].map((c) => c.codePointAt(0)!);
  const steps = new Set(codes.slice(1).map((code, i) => code - codes[i]));
  const wrapped = [...steps].every((step) => step === 1 || step === -9) || [...steps].every((step) => step === -1 || step === 9);
  return steps.size === 1 ? [1, -1].includes([...steps][0]) : /^\d+$/.test(text) && wrapped;
}

/** A new password typed twice, as the invitation and reset pages send it. */
/** The password a signed-in person gives again to prove it is them (./signed-in-proof.ts): any text, bounded. */
export const givenPasswordField = z.string().min(1, { error: "Enter your password." }).max(1024);

export const newPasswordSchema = z
  .object({ password: z.string(), password_again: z.string() })
  .superRefine(({ password, password_again }, ctx) => {
    const broken = passwordRuleBroken(password);
    if (broken) ctx.addIssue({ code: "custom", path: ["password"], message: broken });
    else if (password !== password_again)
      ctx.addIssue({ code: "custom", path: ["password_again"], message: "must be the same password again" });
  });
