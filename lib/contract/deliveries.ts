import { z } from "zod";
import { paginationSchema } from "./invoice";
import { FIRST_API_INSTANT, LAST_API_INSTANT } from "./list-query";
import { invoiceListQueryShape } from "./list-query-schema";
import { addDays, startOfDay } from "./time-zone";
import { webhookDeliverySchema } from "./webhooks";

/*
 * The deliveries log (a provider's extension; the sandbox's is GET /webhook-deliveries): its states and events,
 * the query the console's route and page read, and the page of deliveries the console shows. The sandbox's own
 * wire shapes are in lib/sandbox/wire-schemas.ts; these are the console's, normalised from any provider.
 */

/** `pending` (not tried yet), `retrying` (tried, another try scheduled), `delivered` (a 2xx), `failed` (no more tries). */
export const DELIVERY_STATES = ["pending", "retrying", "delivered", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  pending: "Pending",
  retrying: "Retrying",
  delivered: "Delivered",
  failed: "Failed",
};

/** The events a status change sends. */
export const WEBHOOK_EVENTS = ["invoice.status_changed"] as const;

/** GET /api/webhook-deliveries's query, passed on to the provider as it is (the sandbox checks the same). */
export const deliveryLogQuerySchema = z
  .object({
    state: z.enum(DELIVERY_STATES, { error: `must be one of ${DELIVERY_STATES.join(", ")}` }).optional(),
    invoice_id: z.string().trim().min(1).max(500, { error: "must be at most 500 characters" }).optional(),
    event: z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(", ")}` }).optional(),
    created_after: invoiceListQueryShape.created_after,
    created_before: invoiceListQueryShape.created_before,
    page: invoiceListQueryShape.page,
    page_size: invoiceListQueryShape.page_size,
  })
  .check((ctx) => {
    const { created_after, created_before } = ctx.value;
    if (created_after && created_before && created_after >= created_before) {
      ctx.issues.push({ code: "custom", input: created_before, path: ["created_before"], message: "must be later than created_after" });
    }
  });
export type DeliveryLogQuery = z.output<typeof deliveryLogQuerySchema>;

/** The query as the provider's query string: what was given, nothing else. */
export function deliveryLogSearchParams(query: DeliveryLogQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(key, String(value));
  return params;
}

export const deliveryPageSchema = z.object({ items: z.array(webhookDeliverySchema), pagination: paginationSchema });
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;

/** Resending one delivery: its id as the provider gave it, and the invoice it belongs to (for the audit log's target). */
export const redeliverRequestSchema = z.object({
  webhook_id: z.string().trim().min(1, { error: "is required" }).max(500, { error: "must be at most 500 characters" }),
  invoice_id: z.string().trim().max(500).optional(),
});
export type RedeliverRequest = z.output<typeof redeliverRequestSchema>;

/**
 * The deliveries view's state as the page's address holds it (`/webhooks/deliveries?state=failed&from=…`): days
 * are days in the person's time zone, turned into instants for the provider by `toDeliveryQuery`.
 */
export type DeliveryView = { state: DeliveryState | null; invoice: string | null; from: string | null; to: string | null; page: number };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readDeliveryView(params: Record<string, string | string[] | undefined>): DeliveryView {
  const one = (name: string) => {
    const value = params[name];
    return typeof value === "string" && value.trim() ? value.trim() : null;
  };
  const state = one("state");
  const day = (name: string) => {
    const value = one(name);
    return value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
  };
  const page = Number(one("page") ?? "1");
  return {
    state: state && (DELIVERY_STATES as readonly string[]).includes(state) ? (state as DeliveryState) : null,
    invoice: one("invoice")?.slice(0, 500) ?? null,
    from: day("from"),
    to: day("to"),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The view's address, with only what differs from the defaults (and the resend job it follows, if any). */
export function deliveryViewHref(view: Partial<DeliveryView>, job?: string): string {
  const params = new URLSearchParams();
  if (view.state) params.set("state", view.state);
  if (view.invoice) params.set("invoice", view.invoice);
  if (view.from) params.set("from", view.from);
  if (view.to) params.set("to", view.to);
  if (view.page && view.page > 1) params.set("page", String(view.page));
  if (job) params.set("job", job);
  const query = params.toString();
  return `/webhooks/deliveries${query ? `?${query}` : ""}`;
}

/**
 * The provider's query for a view: `from` and `to` are whole days in `timeZone`, both included, so the bounds
 * (exclusive at the provider) are the millisecond before `from` starts and the start of the day after `to`. A bound
 * that only reaches outward past the years the API reads (from the calendar's first day, to its last) is left out:
 * it bounds nothing. One past them inward (to a day of year 0000) is left for the provider to refuse.
 */
export function toDeliveryQuery(view: DeliveryView, timeZone: string) {
  const after = view.from ? startOfDay(view.from, timeZone) - 1 : undefined;
  const before = view.to ? startOfDay(addDays(view.to, 1), timeZone) : undefined;
  return deliveryLogQuerySchema.safeParse({
    state: view.state ?? undefined,
    invoice_id: view.invoice ?? undefined,
    created_after: after !== undefined && after >= FIRST_API_INSTANT ? new Date(after).toISOString() : undefined,
    created_before: before !== undefined && before <= LAST_API_INSTANT ? new Date(before).toISOString() : undefined,
    page: String(view.page),
    page_size: "20",
  });
}

// ---- Resending every failed delivery of a view, as a server job ------------------------------------------

/** The most deliveries one resend job takes: a view beyond this is narrowed first. */
export const REDELIVER_JOB_MAX = 1000;

/**
 * What became of one delivery of a resend job (null while it waits): `delivered` (the receiver answered 2xx),
 * `not_delivered` (sent, the receiver said no or was unreachable), `failed` (the provider refused or did not
 * answer), `not_run` (the job stopped first: its person may no longer resend).
 */
export const REDELIVER_OUTCOMES = ["delivered", "not_delivered", "failed", "not_run"] as const;
export type RedeliverOutcome = (typeof REDELIVER_OUTCOMES)[number];

/** A resend job as the deliveries view shows it: GET /api/webhook-deliveries/resend-jobs/{id}. */
export const redeliverJobSchema = z.object({
  id: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  /** Null while deliveries wait. */
  finished_at: z.string().nullable(),
  total: z.number().int(),
  counts: z.record(z.enum([...REDELIVER_OUTCOMES, "waiting"]), z.number().int()),
  items: z.array(
    z.object({
      webhook_id: z.string(),
      invoice_id: z.string(),
      outcome: z.enum(REDELIVER_OUTCOMES).nullable(),
      detail: z.string().nullable(),
    }),
  ),
});
export type RedeliverJob = z.infer<typeof redeliverJobSchema>;

/** The resend-all form: the view it resends (its failed deliveries), as the view's address holds it. */
export const redeliverViewSchema = z.object({
  invoice: z.string().trim().max(500).optional(),
  from: z.string().trim().max(10).optional(),
  to: z.string().trim().max(10).optional(),
});
