import { listApprovals } from "@/lib/console/approvals/store";
import { bffRoute } from "@/lib/console/bff/route";
import { approvalListQuerySchema } from "@/lib/contract/approvals";
import { getDatabase } from "@/lib/platform/db";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

// Whoever may ask for a change sees the requests (their own among them); deciding needs invoices:approve.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:change_status", async ({ request }) => {
    const { state } = parseQuery(request, approvalListQuerySchema);
    return { items: await listApprovals(await getDatabase(), state) };
  }),
});
