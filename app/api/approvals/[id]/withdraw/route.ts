import { withdrawRequest } from "@/lib/console/approvals/decide";
import { bffRoute } from "@/lib/console/bff/route";
import { approvalDecisionSchema } from "@/lib/contract/approvals";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonBody } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute<{ id: string }>("invoices:change_status", async ({ request, params, user }) => {
    const { reason } = await parseJsonBody(request, approvalDecisionSchema, '{"reason": "Asked for the wrong invoice"}');
    return { approval: await withdrawRequest({ db: await getDatabase(), user, id: params.id, reason }) };
  }),
});
