import { listActivity } from "@/lib/console/activity/query";
import { bffRoute } from "@/lib/console/bff/route";
import { activityQuerySchema } from "@/lib/contract/activity";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("audit:read", async ({ request }) =>
    listActivity(await getDatabase(), parseQuery(request, activityQuerySchema), env().timeZone),
  ),
});
