import { publicRoute } from "@/lib/bff/route";
import { health } from "@/lib/health";
import { methods } from "@/lib/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: publicRoute(health) });
