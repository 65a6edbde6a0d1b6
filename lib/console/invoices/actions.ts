"use server";

import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { recordArchivedInvoice } from "@/lib/console/invoices/archive";
import { changeInvoiceStatus, describeRefusedStatusChange } from "@/lib/console/invoices/change-status";
import { upstream } from "@/lib/console/upstream/client";
import { ARCHIVED_BODY_EXAMPLE, archivedInvoiceRequestSchema, statusChangeRequestSchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonTextLossless } from "@/lib/platform/http-body";

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
    const updated = await changeInvoiceStatus({
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
