import { signInAgain } from "@/lib/console/auth/sign-in-again-route";
import { signInRoute } from "@/lib/console/bff/route";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: signInRoute(async ({ request }) => signInAgain(await request.json().catch(() => ({})), request.headers)),
});
