import { bffRoute } from "@/lib/console/bff/route";
import { listBulkJobs } from "@/lib/console/invoices/bulk-cancel";
import { getDatabase } from "@/lib/platform/db";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:change_status", async ({ user }) => ({ jobs: await listBulkJobs(await getDatabase(), user) })),
});
