import { methods } from "@/lib/platform/http-methods";
import { sandboxOpenApiRoute } from "@/lib/sandbox";

// The one sandbox address that needs no Api-key: the document that says how to use the others.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: sandboxOpenApiRoute });
