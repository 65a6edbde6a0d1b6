import { methods } from "@/lib/http-methods";
import { sandboxRates, sandboxRoute } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute(({ db, caller }) => sandboxRates(db, caller)),
});
