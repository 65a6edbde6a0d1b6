import { bffRoute } from "@/lib/bff/route";
import { formatInvoiceId, parseInvoiceId } from "@/lib/invoicing";
import { notFound } from "@/lib/problem";
import { upstream } from "@/lib/upstream/client";

export const GET = bffRoute<{ id: string }>("invoices:read", async ({ params: { id } }) => {
  const uuid = parseInvoiceId(id);
  if (!uuid) throw notFound(`No invoice has the id ${JSON.stringify(id)}.`);
  return upstream().getInvoice(formatInvoiceId(uuid));
});
