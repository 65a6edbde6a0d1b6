import { exportActivityResponse } from "@/lib/console/activity/export";
import { bffRoute } from "@/lib/console/bff/route";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("audit:read", ({ request, user }) => exportActivityResponse(request, user)),
});
