import { bffRoute } from "@/lib/bff/route";
import { getDatabase } from "@/lib/db";
import { parseJsonBody } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { changeInvoiceStatus, describeRefusedStatusChange } from "@/lib/invoices/change-status";
import { formatInvoiceId, parseInvoiceId, statusChangeRequestSchema } from "@/lib/invoicing";
import { notFound } from "@/lib/problem";
import { upstream } from "@/lib/upstream/client";

function invoiceUuid(id: string): string {
  const uuid = parseInvoiceId(id);
  if (!uuid) throw notFound(`No invoice has the id ${JSON.stringify(id)}.`);
  return uuid;
}

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: bffRoute<{ id: string }>("invoices:read", async ({ params }) => upstream().getInvoice(formatInvoiceId(invoiceUuid(params.id)))),
  PATCH: bffRoute<{ id: string }>(
    "invoices:change_status",
    async ({ request, params, user }) => {
      const uuid = invoiceUuid(params.id);
      const { status, reason } = await parseJsonBody(request, statusChangeRequestSchema);
      return changeInvoiceStatus({ db: await getDatabase(), upstream: upstream(), user, uuid, status, reason });
    },
    { auditRefusal: ({ request, params }) => describeRefusedStatusChange({ request, id: params.id, upstream: upstream() }) },
  ),
});
