"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { SessionUser } from "@/lib/console/auth/session";
import { guardedAction } from "@/lib/console/bff/action";
import { recordArchivedInvoice } from "@/lib/console/invoices/archive";
import { describeRefusedStatusChange, requestStatusChange } from "@/lib/console/invoices/change-status";
import { upstream } from "@/lib/console/upstream/client";
import { ARCHIVED_BODY_EXAMPLE, archivedInvoiceRequestSchema, searchParamsToObject, statusChangeRequestSchema } from "@/lib/contract";
import { toArchiveRequest } from "@/lib/contract/archive-form-schema";
import { AMOUNT_SIDES, type ArchiveFormValues } from "@/lib/contract/archive-form-values";
import { bulkCancelStartSchema } from "@/lib/contract/bulk";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { type InvoiceViewQuery, invoiceViewQuerySchema } from "@/lib/contract/invoice-view";
import { stringifyJson } from "@/lib/contract/money-json";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonTextLossless } from "@/lib/platform/http-body";
import { readBulkJob, retryFailed, viewInvoiceIds } from "./bulk-cancel";
import { previewBulkCancel } from "./bulk-preview";
import { runInBackground } from "./bulk-runner";
import { startBulkCancel } from "./bulk-start";
import { listView } from "./list-source";

// Ids are opaque: the provider's own, passed on as given.
const statusChangeFormSchema = z.intersection(
  z.object({ invoice_id: z.string().min(1, { error: "is required" }) }),
  statusChangeRequestSchema,
);

/** One status change, or its request for approval: the policy, use case and audit trail of PATCH /api/invoices/{id}. */
async function changeStatus({ invoice_id, status, reason }: z.output<typeof statusChangeFormSchema>, user: SessionUser) {
  return requestStatusChange({ db: await getDatabase(), upstream: upstream(), user, id: invoice_id, status, reason });
}

/** A refused attempt at a status change is itself an audit entry, as the route's. */
const auditRefusedChange = (fields: Record<string, string>) =>
  describeRefusedStatusChange({ body: fields, id: fields.invoice_id ?? "", upstream: upstream() });

/**
 * Support changes an invoice's status from its page (components/invoices/status-change/status-change.tsx): the same guard,
 * use case and audit trail as PATCH /api/invoices/{id}, including the audit entry of a refused attempt.
 */
export const changeStatusAction = guardedAction(
  "invoices:change_status",
  statusChangeFormSchema,
  async (input, user) => {
    const answer = await changeStatus(input, user!);
    return answer.approval
      ? { approval: answer.approval, answeredAt: Date.now() }
      : { status: answer.invoice.status, approval: null, answeredAt: Date.now() };
  },
  { auditRefusal: auditRefusedChange },
);

/** The invoice's own page, as the console links it. */

/**
 * The same change from the form an invoice's page draws without script (`?change=cancelled`): a
 * refusal comes back to that form with the reason kept; a change made goes back to the invoice, which says
 * so (`?changed=`). An ended session leads to sign-in and back to the same form, the reason filled in.
 */
export const changeStatusFormAction = guardedAction(
  "invoices:change_status",
  statusChangeFormSchema,
  async (input, user) => {
    const answer = await changeStatus(input, user!);
    if (answer.approval) redirect(`${invoiceHref(input.invoice_id)}?asked=${encodeURIComponent(input.status)}`);
    redirect(`${invoiceHref(input.invoice_id)}?changed=${encodeURIComponent(answer.invoice.status ?? input.status)}`);
  },
  {
    auditRefusal: auditRefusedChange,
    draftPath: (fields) =>
      `${invoiceHref(fields.invoice_id ?? "")}?${new URLSearchParams({ change: fields.change ?? fields.status ?? "cancelled", status: fields.status ?? "", reason: fields.reason ?? "" })}`,
  },
);

/**
 * One archived invoice recorded from its request as JSON text: read as POST /api/archived reads it, so every
 * amount keeps exactly the digits typed and a broken rule names the request's own fields.
 */
async function recordArchived(request: string, user: SessionUser) {
  const body = parseJsonTextLossless(request, archivedInvoiceRequestSchema, ARCHIVED_BODY_EXAMPLE);
  return recordArchivedInvoice({ db: await getDatabase(), upstream: upstream(), user, body });
}

/**
 * Finance records one archived invoice (components/archive/archive-form.tsx): the same guard, reading and use
 * case as POST /api/archived. The request travels as its JSON text in one field.
 */
export const recordArchivedAction = guardedAction("invoices:archive", z.object({ request: z.string() }), async ({ request }, user) => {
  const invoice = await recordArchived(request, user!);
  return { invoice: { invoice_id: invoice.invoice_id, order_id: invoice.order_id }, answeredAt: Date.now() };
});

/** The archive form's fields as typed, when it was sent without script (its script sends `request` instead). */
const archiveFormFieldsSchema = z.object({
  order_id: z.string().default(""),
  order_name: z.string().default(""),
  currency: z.string().default(""),
  amount_in: z.enum(AMOUNT_SIDES).catch("fiat"),
  amount: z.string().default(""),
  allowed_error_percent: z.string().default(""),
  callback_url: z.string().default(""),
  date: z.string().default(""),
  time: z.string().default(""),
  /** The zone the form's date and time are read in: the one the page was drawn in. */
  time_zone: z.string().default("UTC"),
});

/** The archive form's draft as the archive page's query (app/(console)/archive/page.tsx reads it back). */
function archiveDraftPath(fields: Record<string, string>): string {
  const draft = new URLSearchParams();
  for (const key of Object.keys(archiveFormFieldsSchema.shape)) if (key !== "time_zone" && fields[key]) draft.set(key, fields[key]);
  return `/archive?${draft}`;
}

/**
 * The archive form sent before its script loaded, or without script: the values read by the form's own rules
 * (lib/contract/archive-form-values.ts) into the same request as recordArchivedAction's, recorded the same
 * way. Recorded: back to the archive page, which says so and links the invoice. A refusal comes back to the
 * form with everything typed; an ended session leads to sign-in and back to the form, filled in.
 */
export const recordArchivedFormAction = guardedAction(
  "invoices:archive",
  archiveFormFieldsSchema,
  async ({ time_zone, ...values }, user) => {
    const invoice = await recordArchived(stringifyJson(toArchiveRequest(values as ArchiveFormValues, time_zone)), user!);
    redirect(`/archive?${new URLSearchParams({ recorded: invoice.invoice_id, order: invoice.order_id ?? values.order_id })}`);
  },
  { draftPath: archiveDraftPath },
);

/** A whole view, sent as the list's query string. */
function parseView(view: string): InvoiceViewQuery {
  const parsed = invoiceViewQuerySchema.safeParse(searchParamsToObject(new URLSearchParams(view)));
  if (!parsed.success) throw Problem.fromZod(parsed.error, "view");
  return parsed.data;
}

/** Bulk cancel: records the job, starts it, and answers with its id for the page to follow. */
export const startBulkCancelAction = guardedAction("invoices:change_status", bulkCancelStartSchema, async (input, user) => {
  let ids: string[];
  if (input.view !== undefined) {
    ids = await viewInvoiceIds(listView, parseView(input.view));
  } else {
    ids = (input.ids ?? "").split(/[\s,]+/);
  }
  const { jobId, approval } = await startBulkCancel(await getDatabase(), user!, ids, input.reason, runInBackground);
  return { ok: approval ? "Waiting for approval…" : "Cancelling…", jobId, approval, answeredAt: Date.now() };
});

/**
 * What every invoice of a view has received, for the confirmation of cancelling them all (the page holds only
 * its own rows): lib/contract/received.ts's summary.
 */
export const previewBulkCancelAction = guardedAction("invoices:change_status", z.object({ view: z.string() }), async ({ view }) => ({
  summary: await previewBulkCancel(listView, parseView(view)),
}));

/** "Try again" for the invoices whose change failed (no answer, a provider error); refused ones stay refused. */
export const retryBulkCancelAction = guardedAction("invoices:change_status", z.object({ job: z.string() }), async ({ job }, user) => {
  const db = await getDatabase();
  if (!(await readBulkJob(db, user!, job))) throw Problem.of("not_found", { detail: "No bulk cancel of yours has this id." });
  const n = await retryFailed(db, job, user!);
  runInBackground(job);
  return { ok: n ? `Trying ${n} again…` : "Nothing failed: nothing to try again.", jobId: job, answeredAt: Date.now() };
});
