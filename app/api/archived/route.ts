import { bffRoute } from "@/lib/bff/route";
import { getDatabase } from "@/lib/db";
import { parseJsonBodyLossless } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { recordArchivedInvoice } from "@/lib/invoices/archive";
import { ARCHIVED_BODY_EXAMPLE, archivedInvoiceRequestSchema } from "@/lib/invoicing";
import { upstream } from "@/lib/upstream/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute("invoices:archive", async ({ request, user }) => {
    const body = await parseJsonBodyLossless(request, archivedInvoiceRequestSchema, ARCHIVED_BODY_EXAMPLE);
    const invoice = await recordArchivedInvoice({ db: await getDatabase(), upstream: upstream(), user, body });
    return Response.json(invoice, { status: 201, headers: { "cache-control": "private, no-store" } });
  }),
});
