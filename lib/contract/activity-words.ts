import { type ActivityEntry, activityKindLabel } from "./activity";
import { formatCount } from "./format";
import { statusLabel } from "./status";

/*
 * An activity entry in words, for the Activity page and its export: what was done ("Cancelled invoice
 * ORD-2611-002394"), how it ended, and where its target lives. The reason is shown beside it, as typed.
 */

export type ActivityOutcome = { label: string; tone: "good" | "bad" | "neutral" };

const text = (value: unknown) => (typeof value === "string" && value ? value : null);

/** The thing an entry is about, as people name it: an invoice by its order id when the entry has it, a person by email. */
export function targetName(entry: Pick<ActivityEntry, "target" | "detail">): string {
  const [kind, ...rest] = entry.target.split(":");
  const id = rest.join(":");
  if (kind === "invoice") return `invoice ${text(entry.detail.order_id) ?? id}`;
  if (kind === "order") return `order ${id}`;
  if (kind === "user") return id;
  if (kind === "saved_view") return `saved view ${text(entry.detail.name) ?? id}`;
  if (kind === "bulk_job") return "a bulk change";
  return entry.target;
}

/** Where the target can be opened: an invoice's page, or this log filtered to the target (a person, a view). */
export function targetHref(target: string): string | null {
  const [kind, ...rest] = target.split(":");
  const id = rest.join(":");
  if (!id) return null;
  if (kind === "invoice") return `/invoices/${encodeURIComponent(id)}`;
  return `/activity?target=${encodeURIComponent(target)}`;
}

export function activitySummary(entry: Pick<ActivityEntry, "action" | "target" | "detail">): string {
  const d = entry.detail;
  const what = targetName(entry);
  const outcome = text(d.outcome);
  switch (entry.action) {
    case "invoice.status_change": {
      const to = statusLabel(text(d.to)).toLowerCase();
      if (outcome === "changed") return d.to === "cancelled" ? `Cancelled ${what}` : `Marked ${what} ${to}`;
      if (outcome === "unchanged") return `Asked to mark ${what} ${to}; it already was`;
      return `Tried to mark ${what} ${to}`;
    }
    case "invoice.archive":
      return outcome === "created" ? `Recorded ${what} as archived` : `Tried to record ${what} as archived`;
    case "invoices.export":
    case "activity.export": {
      const format = text(d.format)?.toUpperCase() ?? "a file";
      const [one, many] = entry.action === "invoices.export" ? ["invoice", "invoices"] : ["activity entry", "activity entries"];
      const n =
        typeof d.total_records === "number" ? `${formatCount(d.total_records)} ${d.total_records === 1 ? one : many}` : `the ${many}`;
      return `Exported ${n} as ${format}`;
    }
    case "sign_in":
      return `Signed in${text(d.method) ? ` with ${methodName(String(d.method))}` : ""}`;
    case "sign_in.failed":
      return `Sign-in refused for ${what}${text(d.reason) ? ` (${reasonName(String(d.reason))})` : ""}`;
    case "two_factor.added":
    case "two_factor.removed":
      return `${entry.action === "two_factor.added" ? "Added" : "Removed"} ${text(d.method) ? methodName(String(d.method)) : "a second factor"}${text(d.name) ? ` “${d.name}”` : ""}`;
    case "user.password_change_failed": {
      const purpose = PASSWORD_PURPOSES[text(d.for) ?? ""];
      return `Gave a wrong password${purpose ? ` ${purpose}` : ""}: ${what}`;
    }
    case "user.role_changed":
      return `Made ${what} ${text(d.to) ?? text(d.role) ?? "another role"}${text(d.from) ? ` (was ${text(d.from)})` : ""}`;
    case "webhook.simulate":
      return `Sent a test webhook (${statusLabel(text(d.status)).toLowerCase()}) for ${what}`;
    case "audit.retention":
      return `Removed ${typeof d.removed === "number" ? formatCount(d.removed) : "old"} entries older than ${d.retention_days} days`;
    case "audit.chain_started":
      return `Started the verified log${typeof d.carried === "number" ? `, carrying ${formatCount(d.carried)} earlier entries` : ""}`;
    default: {
      const label = activityKindLabel(entry.action);
      return entry.target.startsWith("user:") || entry.target.startsWith("invoice:") ? `${label}: ${what}` : label;
    }
  }
}

/**
 * The reasons an entry holds, its own first: a decision on someone's request carries the decider's reason and
 * the request's, and the log must not show the request's as if it were why it was decided.
 */
export function activityReasons(entry: Pick<ActivityEntry, "detail">): { label: string; text: string }[] {
  const asked = text(entry.detail.reason);
  const decided = text(entry.detail.decision_reason);
  if (!decided) return asked ? [{ label: "Reason", text: asked }] : [];
  return [{ label: "Reason", text: decided }, ...(asked ? [{ label: "Asked because", text: asked }] : [])];
}

/** How the entry ended, when it says: a change made, refused, failed, or of unknown outcome. */
export function activityOutcome(entry: Pick<ActivityEntry, "action" | "detail">): ActivityOutcome | null {
  const outcome = text(entry.detail.outcome);
  if (entry.action === "sign_in.failed" || entry.action === "sign_in.code_failed") return { label: "Refused", tone: "bad" };
  if (!outcome) return null;
  if (["changed", "created", "sent", "approved"].includes(outcome)) return { label: capital(outcome), tone: "good" };
  if (outcome === "unchanged") return { label: "Unchanged", tone: "neutral" };
  if (outcome === "unknown") return { label: "Unknown", tone: "neutral" };
  return { label: capital(outcome), tone: "bad" };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replaceAll("_", " ");
const METHODS: Record<string, string> = {
  password: "password",
  totp: "an authenticator code",
  recovery_code: "a recovery code",
  passkey: "a passkey",
  invitation: "an invitation link",
  reset_link: "a reset link",
};
/** What a signed-in person gave their password again for (lib/console/auth/signed-in-proof.ts). */
const PASSWORD_PURPOSES: Record<string, string> = {
  password_change: "to change it",
  passkey: "to add a passkey",
  passkey_removal: "to remove a passkey",
  authenticator_app: "to set up an authenticator app",
};
const methodName = (method: string) => METHODS[method] ?? method;
const REASONS: Record<string, string> = {
  password: "wrong password",
  disabled: "account disabled",
  unknown_passkey: "unknown passkey",
  signature: "bad signature",
};
const reasonName = (reason: string) => REASONS[reason] ?? reason.replaceAll("_", " ");
