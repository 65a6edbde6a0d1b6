import { bffRoute } from "@/lib/console/bff/route";
import { recordArchivedInvoice } from "@/lib/console/invoices/archive";
import { upstream } from "@/lib/console/upstream/client";
import { ARCHIVED_BODY_EXAMPLE, archivedInvoiceRequestSchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonBodyLossless } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute("invoices:archive", async ({ request, user }) => {
    const body = await parseJsonBodyLossless(request, archivedInvoiceRequestSchema, ARCHIVED_BODY_EXAMPLE);
    const invoice = await recordArchivedInvoice({ db: await getDatabase(), upstream: upstream(), user, body });
    return Response.json(invoice, { status: 201, headers: { "cache-control": "private, no-store" } });
  }),
});
