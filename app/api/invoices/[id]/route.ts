import { bffRoute } from "@/lib/console/bff/route";
import { describeRefusedStatusChange, requestStatusChange } from "@/lib/console/invoices/change-status";
import { upstream } from "@/lib/console/upstream/client";
import { statusChangeRequestSchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonBody } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

// Ids are opaque: the provider's own, passed on as given (Next.js has decoded the path segment once).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute<{ id: string }>("invoices:read", async ({ params }) => upstream().getInvoice(params.id)),
  PATCH: bffRoute<{ id: string }>(
    "invoices:change_status",
    async ({ request, params, user }) => {
      const { status, reason } = await parseJsonBody(
        request,
        statusChangeRequestSchema,
        '{"status": "cancelled", "reason": "Order voided"}',
      );
      const answer = await requestStatusChange({ db: await getDatabase(), upstream: upstream(), user, id: params.id, status, reason });
      // A change the policy gives a second person to approve is not sent: 202, the request to follow.
      if (answer.approval)
        return Response.json({ approval: answer.approval }, { status: 202, headers: { "cache-control": "private, no-store" } });
      return answer.invoice;
    },
    {
      auditRefusal: async ({ request, params }) =>
        describeRefusedStatusChange({ body: await request.json().catch(() => null), id: params.id, upstream: upstream() }),
    },
  ),
});
