import "server-only";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { indexChangedInvoice } from "@/lib/console/mirror";
import type { Upstream } from "@/lib/console/upstream/client";
import { type ArchivedInvoiceInput, archivedInvoiceRequestFields, type Invoice } from "@/lib/contract";
import { toProblem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { invoiceAuditTarget } from "./change-status";

const ARCHIVE_ACTION = "invoice.archive";

/** Until the provider names the invoice, an attempt is filed under the order it was for. */
export const archiveAuditTarget = (orderId: string) => `order:${orderId}`;

/**
 * Finance records a historical invoice through the provider's POST /archived. Every attempt lands in the
 * audit log — created or refused — with what was sent and what the provider answered; a refusal is rethrown
 * with the provider's own words on the fields it names.
 */
export async function recordArchivedInvoice(input: {
  db: Db;
  upstream: Upstream;
  user: SessionUser;
  body: ArchivedInvoiceInput;
}): Promise<Invoice> {
  const { db, upstream, user, body } = input;
  const sent = archivedInvoiceRequestFields(body);
  let created: Invoice;
  try {
    created = await upstream.createArchivedInvoice(body);
  } catch (error) {
    const problem = toProblem(error);
    await recordAudit(db, {
      actor: user,
      action: ARCHIVE_ACTION,
      target: archiveAuditTarget(body.order_id),
      detail: {
        sent,
        // No answer at all leaves the outcome unknown: the invoice may have been created.
        outcome: problem.upstreamStatus === null ? "unknown" : "failed",
        upstream_status: problem.upstreamStatus ?? null,
        problem: problem.code,
        errors: problem.errors ?? null,
      },
    });
    throw problem;
  }
  await recordAudit(db, {
    actor: user,
    action: ARCHIVE_ACTION,
    target: invoiceAuditTarget(created.invoice_id),
    detail: { sent, outcome: "created", upstream_status: 201, order_id: created.order_id },
  });
  await indexChangedInvoice(db, created);
  return created;
}
