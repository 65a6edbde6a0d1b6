import { bffRoute } from "@/lib/console/bff/route";
import { recordArchivedInvoice } from "@/lib/console/invoices/archive";
import { recordedOrderIds } from "@/lib/console/mirror/store";
import { upstream } from "@/lib/console/upstream/client";
import { ARCHIVED_BODY_EXAMPLE, archivedInvoiceRequestSchema, recordedCheckQuerySchema } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonBodyLossless } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // An import's preview: which rows' order ids are already recorded, asked before anything is sent.
  GET: bffRoute("invoices:archive", async ({ request }) => {
    const parsed = recordedCheckQuerySchema.safeParse({ order_id: new URL(request.url).searchParams.getAll("order_id") });
    if (!parsed.success) throw Problem.fromZod(parsed.error, "query");
    const recorded = await recordedOrderIds(await getDatabase(), parsed.data.order_id);
    return Response.json({ recorded }, { headers: { "cache-control": "private, no-store" } });
  }),
  POST: bffRoute("invoices:archive", async ({ request, user }) => {
    const body = await parseJsonBodyLossless(request, archivedInvoiceRequestSchema, ARCHIVED_BODY_EXAMPLE);
    const invoice = await recordArchivedInvoice({ db: await getDatabase(), upstream: upstream(), user, body });
    return Response.json(invoice, { headers: { "cache-control": "private, no-store" }, status: 201 });
  }),
});
