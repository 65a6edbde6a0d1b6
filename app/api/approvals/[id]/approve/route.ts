import { approveRequest } from "@/lib/console/approvals/decide";
import { bffRoute } from "@/lib/console/bff/route";
import { runInBackground } from "@/lib/console/invoices/bulk-runner";
import { upstream } from "@/lib/console/upstream/client";
import { approvalDecisionSchema } from "@/lib/contract/approvals";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonBody } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

const EXAMPLE = '{"reason": "Checked the payment on chain"}';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute<{ id: string }>("invoices:approve", async ({ request, params, user }) => {
    const { reason } = await parseJsonBody(request, approvalDecisionSchema, EXAMPLE);
    const approval = await approveRequest({
      db: await getDatabase(),
      upstream: upstream(),
      user,
      id: params.id,
      reason,
      start: runInBackground,
    });
    return { approval };
  }),
});
