import { bffRoute, machineRoute } from "@/lib/bff/route";
import { getDatabase } from "@/lib/db";
import { env } from "@/lib/env";
import { parseQuery } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { inboxQuerySchema } from "@/lib/invoicing";
import { reindexInvoice } from "@/lib/search";
import { upstream } from "@/lib/upstream/client";
import { answerInbox, listInbox } from "@/lib/webhooks/inbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // Providers post here with no session: the signature is the only credential (and need not be there).
  // A validly signed status webhook also re-reads its invoice into the search index.
  POST: machineRoute(async ({ request }) => {
    const db = await getDatabase();
    return answerInbox(db, request, env().inbox, (invoiceId) => reindexInvoice(db, upstream(), invoiceId));
  }),
  GET: bffRoute("webhooks:simulate", async ({ request }) => listInbox(await getDatabase(), parseQuery(request, inboxQuerySchema))),
});
