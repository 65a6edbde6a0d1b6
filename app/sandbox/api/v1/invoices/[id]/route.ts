import { getInvoice, requireScope, sandboxRoute } from "@/lib/sandbox";

export const GET = sandboxRoute<{ id: string }>(async ({ db, caller, params }) => {
  requireScope(caller, "invoices:read");
  return getInvoice(db, caller, params.id);
});
