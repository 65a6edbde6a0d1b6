import { bffRoute } from "@/lib/console/bff/route";
import { readRedeliverJob } from "@/lib/console/webhooks/bulk-redeliver";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute<{ id: string }>("webhooks:manage", async ({ params, user }) => {
    const job = await readRedeliverJob(await getDatabase(), user, params.id);
    if (!job) throw Problem.of("not_found", { detail: "No resend job of yours has this id." });
    return job;
  }),
});
