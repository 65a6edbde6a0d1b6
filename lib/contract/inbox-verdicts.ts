// The inbox's verdicts in a module without zod: the pages' filter and badges name them without loading it.
export const INBOX_VERDICTS = ["valid", "invalid", "too_old", "replayed", "not_verified"] as const;
export type InboxVerdict = (typeof INBOX_VERDICTS)[number];

export const INBOX_VERDICT_LABELS: Record<InboxVerdict, string> = {
  valid: "Signature valid",
  invalid: "Signature invalid",
  too_old: "Too old",
  replayed: "Replayed",
  not_verified: "Not verified",
};
