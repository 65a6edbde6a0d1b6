// The invoices the OpenAPI document shows as examples (./openapi.ts); its test checks each against its schema.
import { INVOICE_ID_EXAMPLE } from "./openapi-parts";

export const invoiceExample = {
  invoice_id: INVOICE_ID_EXAMPLE,
  order_id: "SHOP-10412",
  order_name: "Merino Wool Sweater (M)",
  status: "completed",
  fiat_amount: 129.99,
  fiat_currency: "EUR",
  crypto_amount: 0.00212,
  currency: "BTC",
  allowed_error_percent: 1,
  callback_url: "https://shop.example.com/api/payments/webhook",
  created_at: "2026-11-20T09:14:03.000Z",
  updated_at: "2026-11-20T09:41:10.000Z",
  expires_at: "2026-11-21T09:14:03.000Z",
  payment: {
    address: "bc1qp8x0w3a9d4k2m7n5r6t1y0u3i8o2p4l6k9j7h5",
    network: "bitcoin",
    amount_due: 0.00212,
    amount_received: 0.00212,
    rate: 61316.04,
    paid_at: "2026-11-20T09:22:40.000Z",
    confirmations: 4,
    confirmations_required: 3,
    transactions: [
      {
        tx_hash: "5f2b0c8e1d7a4b3c9e6f1a2d8c7b5e4f3a2d1c0b9e8f7a6d5c4b3a2f1e0d9c8b",
        amount: 0.00212,
        confirmations: 4,
        block_height: 925_396,
        seen_at: "2026-11-20T09:22:40.000Z",
        explorer_url: "https://mempool.space/tx/5f2b0c8e1d7a4b3c9e6f1a2d8c7b5e4f3a2d1c0b9e8f7a6d5c4b3a2f1e0d9c8b",
      },
    ],
  },
};

export const archivedExample = {
  ...invoiceExample,
  invoice_id: "invoice_0194a3b0-2c00-7e41-8a55-3f9d2b7c1e60",
  order_id: "LEGACY-2025-0042",
  order_name: "Workshop Ticket: Winter Navigation",
  status: "archived",
  fiat_amount: 49.9,
  crypto_amount: 0.00081383,
  created_at: "2025-01-15T00:00:00.000Z",
  updated_at: "2026-11-23T10:02:11.000Z",
  expires_at: null,
  callback_url: null,
  priced_in: "fiat",
  payment: {
    address: null,
    network: "bitcoin",
    amount_due: 0.00081383,
    amount_received: null,
    rate: 61316.04,
    paid_at: null,
    confirmations: null,
    confirmations_required: null,
    transactions: [],
  },
};
