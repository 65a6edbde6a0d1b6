import { z } from "zod";
import { paginationSchema } from "./invoice";
import { viewText } from "./invoice-view";

/*
 * The activity log (the console's audit entries, lib/console/activity): what GET /api/activity, its export and
 * the /activity page read, one schema for all three, so a page's address, its API call and its file are the same view.
 */

/** The kinds of entry the console writes, each with its words; the page's kind filter offers these. */
export const ACTIVITY_KINDS = {
  "invoice.status_change": "Changed an invoice's status",
  "invoice.archive": "Recorded an archived invoice",
  "bulk_cancel.started": "Started a bulk cancel",
  "bulk_cancel.retried": "Tried a bulk cancel's failures again",
  "invoices.export": "Exported invoices",
  "approval.requested": "Asked for approval",
  "approval.approved": "Approved a change",
  "approval.rejected": "Rejected a change",
  "approval.withdrawn": "Withdrew a request",
  "approval.expired": "A request expired",
  "approval.invoice_changed": "A request closed: the invoice changed",
  "approval.requester_changed": "A request closed: its requester may no longer ask",
  "policy.changed": "Changed the approval policy",
  "webhook.simulate": "Sent a test webhook",
  "webhook.redeliver": "Resent a webhook",
  "bulk_redeliver.started": "Started resending failed webhooks",
  "saved_view.created": "Saved a view",
  "saved_view.renamed": "Renamed a saved view",
  "saved_view.removed": "Removed a saved view",
  sign_in: "Signed in",
  sign_out: "Signed out",
  "sign_in.failed": "Failed to sign in",
  "sign_in.code_failed": "Entered a wrong code",
  "sign_in.recovery_code_used": "Used a recovery code",
  "two_factor.added": "Added a second factor",
  "two_factor.removed": "Removed a second factor",
  "two_factor.remove_failed": "Gave a wrong code to turn off the authenticator app",
  "two_factor.requirement_changed": "Changed who needs a second factor",
  "session.ended": "Ended a session",
  "session.ended_others": "Signed out everywhere else",
  "user.created": "Added a person",
  "user.invited": "Invited a person",
  "user.invitation_accepted": "Accepted an invitation",
  "user.reset_issued": "Issued a password reset link",
  "user.password_reset": "Reset a password",
  "user.password_changed": "Changed their password",
  "user.password_change_failed": "Gave a wrong password while signed in",
  "user.role_changed": "Changed a role",
  "user.time_zone_changed": "Changed their time zone",
  "user.disabled": "Disabled a person",
  "user.enabled": "Enabled a person",
  "user.sessions_ended": "Ended a person's sessions",
  "user.taken_back": "Took an account back",
  "activity.export": "Exported the activity log",
  "audit.chain_started": "Started the verified log",
  "audit.retention": "Removed old activity",
} as const;
export type ActivityKind = keyof typeof ACTIVITY_KINDS;

/** The words for a kind; a kind this console does not know (an older or newer one) is shown as it is stored. */
export function activityKindLabel(action: string): string {
  return (ACTIVITY_KINDS as Record<string, string>)[action] ?? action;
}

export const ACTIVITY_PAGE_SIZES = [25, 50, 100] as const;
export const ACTIVITY_DEFAULT_PAGE_SIZE = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .regex(DAY, { error: "must be a day as YYYY-MM-DD", abort: true })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), {
    error: "is not a day of the calendar",
  });
const optionalText = (max: number, what: string) =>
  z
    .string()
    // As a view's text is read: control characters (a NUL, which PostgreSQL's text cannot hold) are never in a filter.
    .transform(viewText)
    .pipe(z.string().max(max, { error: `${what} has at most ${max} characters` }))
    .transform((value) => value || undefined)
    .optional();

/**
 * The view's parameters as a query string holds them. `action` is comma-separated (or repeated); `after` and
 * `before` are business days, both included; `target` is an entry's target as stored ("user:ana@example.com") or
 * an invoice named as the tables show it (its whole id, its short id or its order id, read through the console's
 * index); `q` is text in the reason or a decision's reason.
 */
export const activityQuerySchema = z
  .object({
    actor: optionalText(254, "A person's email"),
    action: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .transform((value) => [
        ...new Set(
          (Array.isArray(value) ? value : value ? [value] : [])
            .flatMap((v) => v.split(","))
            .map((v) => v.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(
        z
          .array(z.string().regex(/^[a-z_]+(\.[a-z_]+)*$/, { error: "must be kinds such as invoice.status_change" }))
          .max(40, { error: "names at most 40 kinds" }),
      ),
    target: optionalText(300, "A target"),
    q: optionalText(200, "The text to find"),
    after: day.optional(),
    before: day.optional(),
    page: z.coerce.number().int().min(1, { error: "must be 1 or more" }).max(1_000_000).default(1),
    page_size: z.coerce
      .number()
      .int()
      .refine((n) => (ACTIVITY_PAGE_SIZES as readonly number[]).includes(n), { error: `must be one of ${ACTIVITY_PAGE_SIZES.join(", ")}` })
      .default(ACTIVITY_DEFAULT_PAGE_SIZE),
  })
  .refine((q) => !q.after || !q.before || q.after <= q.before, { error: "must not be after `before`", path: ["after"] });
export type ActivityQuery = z.output<typeof activityQuerySchema>;

/** One entry as the API answers it. */
export const activityEntrySchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  actor_email: z.string(),
  action: z.string(),
  target: z.string(),
  detail: z.record(z.string(), z.unknown()),
  request_id: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityListSchema = z.object({ items: z.array(activityEntrySchema), pagination: paginationSchema });
export type ActivityList = z.infer<typeof activityListSchema>;

/** GET /api/activity/verify: how many entries were checked, and the first that does not match, if any. */
export type ChainVerification = {
  verified: number;
  first_broken: { seq: number; at: string } | null;
  /** The newest entry checked: an auditor who keeps this hash can later tell whether entries were removed from the end. */
  head: { seq: number; hash: string } | null;
};

/** The view as a query string ("?actor=…&action=a,b&page=2"), leaving out what is default; `change` replaces parts of it. */
export function activitySearch(query: ActivityQuery, change: Partial<ActivityQuery> = {}): string {
  const view = { ...query, ...change };
  const params = new URLSearchParams();
  if (view.actor) params.set("actor", view.actor);
  if (view.action.length) params.set("action", view.action.join(","));
  if (view.target) params.set("target", view.target);
  if (view.q) params.set("q", view.q);
  if (view.after) params.set("after", view.after);
  if (view.before) params.set("before", view.before);
  if (view.page > 1) params.set("page", String(view.page));
  if (view.page_size !== ACTIVITY_DEFAULT_PAGE_SIZE) params.set("page_size", String(view.page_size));
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** Whether the view filters anything (its page and size aside). */
export function isFiltered(query: ActivityQuery): boolean {
  return Boolean(query.actor || query.action.length || query.target || query.q || query.after || query.before);
}
