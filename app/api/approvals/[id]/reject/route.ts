import { rejectRequest } from "@/lib/console/approvals/decide";
import { bffRoute } from "@/lib/console/bff/route";
import { approvalDecisionSchema } from "@/lib/contract/approvals";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonBody } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute<{ id: string }>("invoices:approve", async ({ request, params, user }) => {
    const { reason } = await parseJsonBody(request, approvalDecisionSchema, '{"reason": "The order was delivered"}');
    return { approval: await rejectRequest({ db: await getDatabase(), user, id: params.id, reason }) };
  }),
});
