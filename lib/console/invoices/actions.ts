"use server";

import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { recordArchivedInvoice } from "@/lib/console/invoices/archive";
import { changeInvoiceStatus, describeRefusedStatusChange } from "@/lib/console/invoices/change-status";
import { upstream } from "@/lib/console/upstream/client";
import {
  ARCHIVED_BODY_EXAMPLE,
  archivedInvoiceRequestSchema,
  REASON_MAX,
  searchParamsToObject,
  statusChangeRequestSchema,
} from "@/lib/contract";
import { invoiceViewQuerySchema } from "@/lib/contract/invoice-view";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonTextLossless } from "@/lib/platform/http-body";
import { createBulkCancel, readBulkJob, retryFailed, viewInvoiceIds } from "./bulk-cancel";
import { runInBackground } from "./bulk-runner";
import { listView } from "./views";

// Ids are opaque: the provider's own, passed on as given.
const statusChangeFormSchema = z.intersection(
  z.object({ invoice_id: z.string().min(1, { error: "is required" }) }),
  statusChangeRequestSchema,
);

/**
 * Support changes an invoice's status from its page (components/invoices/status-change.tsx): the same guard,
 * use case and audit trail as PATCH /api/invoices/{id}, including the audit entry of a refused attempt.
 */
export const changeStatusAction = guardedAction(
  "invoices:change_status",
  statusChangeFormSchema,
  async ({ invoice_id, status, reason }, user) => {
    const { invoice: updated } = await changeInvoiceStatus({
      db: await getDatabase(),
      upstream: upstream(),
      user: user!,
      id: invoice_id,
      status,
      reason,
    });
    return { status: updated.status, answeredAt: Date.now() };
  },
  { auditRefusal: (fields) => describeRefusedStatusChange({ body: fields, id: fields.invoice_id ?? "", upstream: upstream() }) },
);

/**
 * Finance records one archived invoice (components/archive/archive-form.tsx): the same guard, reading and use
 * case as POST /api/archived. The request travels as its JSON text in one field, so every amount keeps exactly
 * the digits typed (issue 22) and a broken rule names the request's own fields, as the route's answer does.
 */
export const recordArchivedAction = guardedAction("invoices:archive", z.object({ request: z.string() }), async ({ request }, user) => {
  const body = parseJsonTextLossless(request, archivedInvoiceRequestSchema, ARCHIVED_BODY_EXAMPLE);
  const invoice = await recordArchivedInvoice({ db: await getDatabase(), upstream: upstream(), user: user!, body });
  return { invoice: { invoice_id: invoice.invoice_id, order_id: invoice.order_id }, answeredAt: Date.now() };
});

const startSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { error: "Say why these invoices are cancelled: it goes into each one's audit trail." })
    .max(REASON_MAX, { error: `must be at most ${REASON_MAX} characters` }),
  /** The selected invoices' ids, separated by commas or new lines… */
  ids: z.string().optional(),
  /** …or every invoice of a view: the list's query string. */
  view: z.string().optional(),
});

/** Bulk cancel (issue 24): records the job, starts it, and answers with its id for the page to follow. */
export const startBulkCancelAction = guardedAction("invoices:change_status", startSchema, async (input, user) => {
  let ids: string[];
  if (input.view !== undefined) {
    const parsed = invoiceViewQuerySchema.safeParse(searchParamsToObject(new URLSearchParams(input.view)));
    if (!parsed.success) throw Problem.fromZod(parsed.error, "view");
    ids = await viewInvoiceIds(listView, parsed.data);
  } else {
    ids = (input.ids ?? "").split(/[\s,]+/);
  }
  const jobId = await createBulkCancel(await getDatabase(), user!, ids, input.reason);
  runInBackground(jobId);
  return { ok: "Cancelling…", jobId, answeredAt: Date.now() };
});

/** "Try again" for the invoices whose change failed (no answer, a provider error); refused ones stay refused. */
export const retryBulkCancelAction = guardedAction("invoices:change_status", z.object({ job: z.string() }), async ({ job }, user) => {
  const db = await getDatabase();
  if (!(await readBulkJob(db, user!, job))) throw Problem.of("not_found", { detail: "No bulk cancel of yours has this id." });
  const n = await retryFailed(db, job);
  runInBackground(job);
  return { ok: n ? `Trying ${n} again…` : "Nothing failed: nothing to try again.", jobId: job, answeredAt: Date.now() };
});
