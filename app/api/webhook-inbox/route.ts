import { bffRoute, machineRoute } from "@/lib/console/bff/route";
import { reindexInvoice } from "@/lib/console/mirror";
import { upstream } from "@/lib/console/upstream/client";
import { answerInbox, listInbox } from "@/lib/console/webhooks/inbox";
import { inboxQuerySchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // Providers post here with no session: the signature is the only credential (and need not be there).
  // A validly signed status webhook also re-reads its invoice into the search index.
  POST: machineRoute(async ({ request }) => {
    const db = await getDatabase();
    return answerInbox(db, request, env().inbox, (invoiceId) => reindexInvoice(db, upstream(), invoiceId));
  }),
  GET: bffRoute("webhooks:simulate", async ({ request }) => listInbox(await getDatabase(), parseQuery(request, inboxQuerySchema))),
});
