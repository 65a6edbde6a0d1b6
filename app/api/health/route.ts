import { publicRoute } from "@/lib/bff/route";
import { health } from "@/lib/health";
import { methods } from "@/lib/http-methods";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: publicRoute(health) });
