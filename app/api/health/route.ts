import { publicRoute } from "@/lib/console/bff/route";
import { health } from "@/lib/console/health";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: publicRoute(health) });
