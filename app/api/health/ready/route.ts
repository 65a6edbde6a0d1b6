import { machineRoute } from "@/lib/bff/route";
import { readiness } from "@/lib/health";
import { methods } from "@/lib/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: machineRoute(readiness) });
