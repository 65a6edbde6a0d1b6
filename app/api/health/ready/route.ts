import { machineRoute } from "@/lib/console/bff/route";
import { readiness } from "@/lib/console/health";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: machineRoute(readiness) });
