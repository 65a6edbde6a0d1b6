/** What a chosen password must be, said where one is typed (the rules: lib/console/auth/password-rules.ts). */
export const PASSWORD_HINT =
  "At least 12 characters: not one of the most common passwords, nor a few characters repeated or a run such as 1234. A few unrelated words make a good one.";
