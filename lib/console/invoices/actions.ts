"use server";

import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { changeInvoiceStatus, describeRefusedStatusChange } from "@/lib/console/invoices/change-status";
import { upstream } from "@/lib/console/upstream/client";
import { statusChangeRequestSchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";

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
