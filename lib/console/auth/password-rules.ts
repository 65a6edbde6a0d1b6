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
  return null;
}

/** A new password typed twice, as the invitation and reset pages send it. */
export const newPasswordSchema = z
  .object({ password: z.string(), password_again: z.string() })
  .superRefine(({ password, password_again }, ctx) => {
    const broken = passwordRuleBroken(password);
    if (broken) ctx.addIssue({ code: "custom", path: ["password"], message: broken });
    else if (password !== password_again)
      ctx.addIssue({ code: "custom", path: ["password_again"], message: "must be the same password again" });
  });
