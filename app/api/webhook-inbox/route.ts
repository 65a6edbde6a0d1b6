import { bffRoute, machineRoute } from "@/lib/bff/route";
import { getDatabase } from "@/lib/db";
import { env } from "@/lib/env";
import { parseQuery } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { inboxQuerySchema } from "@/lib/invoicing";
import { answerInbox, listInbox } from "@/lib/webhooks/inbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // Providers post here with no session: the signature is the only credential (and need not be there).
  POST: machineRoute(async ({ request }) => answerInbox(await getDatabase(), request, env().inbox)),
  GET: bffRoute("webhooks:simulate", async ({ request }) => listInbox(await getDatabase(), parseQuery(request, inboxQuerySchema))),
});
