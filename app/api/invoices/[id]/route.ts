import { bffRoute } from "@/lib/bff/route";
import { getDatabase } from "@/lib/db";
import { parseJsonBody } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { changeInvoiceStatus, describeRefusedStatusChange } from "@/lib/invoices/change-status";
import { statusChangeRequestSchema } from "@/lib/invoicing";
import { upstream } from "@/lib/upstream/client";

// Ids are opaque: the provider's own, passed on as given (Next.js has decoded the path segment once).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute<{ id: string }>("invoices:read", async ({ params }) => upstream().getInvoice(params.id)),
  PATCH: bffRoute<{ id: string }>(
    "invoices:change_status",
    async ({ request, params, user }) => {
      const { status, reason } = await parseJsonBody(request, statusChangeRequestSchema);
      return changeInvoiceStatus({ db: await getDatabase(), upstream: upstream(), user, id: params.id, status, reason });
    },
    { auditRefusal: ({ request, params }) => describeRefusedStatusChange({ request, id: params.id, upstream: upstream() }) },
  ),
});
