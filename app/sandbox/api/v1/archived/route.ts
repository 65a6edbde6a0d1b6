import { ARCHIVED_BODY_EXAMPLE, archivedInvoiceRequestSchema } from "@/lib/contract";
import { methods } from "@/lib/platform/http-methods";
import { createArchivedInvoice, readSandboxJsonBody, requireScope, sandboxRoute, wireJson } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: sandboxRoute(async ({ request, db, caller }) => {
    requireScope(caller, "invoices:write");
    const invoice = await createArchivedInvoice(
      db,
      caller,
      await readSandboxJsonBody(request, archivedInvoiceRequestSchema, ARCHIVED_BODY_EXAMPLE),
    );
    return wireJson(invoice, { status: 201, headers: { "cache-control": "no-store" } });
  }),
});
