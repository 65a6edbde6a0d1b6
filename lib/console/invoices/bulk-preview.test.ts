import { describe, expect, it } from "vitest";
import type { Invoice, InvoiceViewList, InvoiceViewQuery } from "@/lib/contract";
import { BULK_MAX } from "./bulk-cancel";
import { previewBulkCancel } from "./bulk-preview";

const invoice = (n: number, status: string, received: string): Invoice => ({
  invoice_id: `invoice_${n}`,
  order_id: `ORD-${n}`,
  order_name: null,
  status,
  fiat_amount: "100.00",
  fiat_currency: "EUR",
  crypto_amount: "0.002",
  currency: "BTC",
  allowed_error_percent: 1,
  callback_url: null,
  created_at: null,
  updated_at: null,
  expires_at: null,
  priced_in: null,
  payment: {
    address: null,
    network: null,
    amount_due: "0.002",
    amount_received: received,
    rate: "50000",
    paid_at: null,
    confirmations: null,
    confirmations_required: null,
    transactions: [],
  },
  provider_fields: [],
});

/** A view of these invoices, served a page at a time. */
function viewOf(invoices: Invoice[], total = invoices.length) {
  const asked: InvoiceViewQuery[] = [];
  const listView = async (view: InvoiceViewQuery): Promise<InvoiceViewList> => {
    asked.push(view);
    const size = view.page_size ?? 20;
    const page = view.page ?? 1;
    const items = invoices.slice((page - 1) * size, page * size);
    const pagination = {
      current_page: page,
      page_size: size,
      total_records: total,
      total_pages: Math.ceil(total / size),
      has_next: page * size < total,
      has_previous: page > 1,
    };
    return { items, pagination };
  };
  return { listView, asked };
}

describe("previewBulkCancel", () => {
  it("walks every page of the view and sums what its invoices received", async () => {
    const invoices = Array.from({ length: 150 }, (_, i) => invoice(i, i < 2 ? "paid_partial" : "new", i < 2 ? "0.00100000" : "0"));
    const { listView, asked } = viewOf(invoices);
    expect(await previewBulkCancel(listView, { status: ["new", "paid_partial"] } as InvoiceViewQuery)).toEqual({
      total: 150,
      withCrypto: 2,
      amountUnknown: 0,
      byCurrency: [{ currency: "BTC", amount: "0.00200000" }],
      eur: "100.00",
    });
    expect(asked.map((q) => q.page)).toEqual([1, 2]);
  });

  it("a view beyond what one bulk cancel takes is refused, as the cancel would be", async () => {
    const { listView } = viewOf([invoice(1, "new", "0")], BULK_MAX + 1);
    await expect(previewBulkCancel(listView, {} as InvoiceViewQuery)).rejects.toMatchObject({ status: 422 });
  });
});
