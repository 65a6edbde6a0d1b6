import { bffRoute } from "@/lib/console/bff/route";
import { readBulkJob } from "@/lib/console/invoices/bulk-cancel";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute<{ id: string }>("invoices:change_status", async ({ params, user }) => {
    const job = await readBulkJob(await getDatabase(), user, params.id);
    if (!job) throw Problem.of("not_found", { detail: "No bulk cancel of yours has this id." });
    return job;
  }),
});
