import { machineRoute } from "@/lib/console/bff/route";
import { metrics } from "@/lib/console/metrics";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: machineRoute(metrics) });
