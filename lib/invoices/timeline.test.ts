import { describe, expect, it } from "vitest";
import type { Invoice } from "@/lib/invoicing";
import { normaliseInvoice } from "@/lib/upstream/normalise";
import { buildTimeline } from "./timeline";

const invoice: Invoice = normaliseInvoice({
  invoice_id: "invoice_x", order_id: "O-1", status: "cancelled", fiat_amount: 1, fiat_currency: "EUR", crypto_amount: 1,
  currency: "BTC", created_at: "2026-05-01T10:00:00.000Z", updated_at: "2026-05-01T12:00:00.000Z",
  payment: { paid_at: "2026-05-01T10:05:00.000Z" },
})!;
const at = (iso: string) => new Date(iso);

describe("buildTimeline", () => {
  it("merges the invoice's dates with every attempt in the audit log, newest first", () => {
    const entries = buildTimeline(invoice, [
      { at: at("2026-05-01T11:00:00Z"), actorEmail: "viewer@example.com", action: "invoice.status_change", detail: { outcome: "refused", role: "viewer" } },
      { at: at("2026-05-01T11:30:00Z"), actorEmail: "sam@example.com", action: "invoice.status_change", detail: { outcome: "failed", from: "pending", to: "cancelled", upstream_status: 504, reason: "Voided" } },
      { at: at("2026-05-01T12:00:00Z"), actorEmail: "sam@example.com", action: "invoice.status_change", detail: { outcome: "changed", from: "pending", to: "cancelled", reason: "Voided" } },
    ]);
    expect(entries.map((e) => e.title)).toEqual([
      "Status changed from Pending to Cancelled",
      "Change to Cancelled failed; nothing changed",
      "Status change refused",
      "Payment seen on chain",
      "Invoice created",
    ]);
    expect(entries[0]).toMatchObject({ actor: "sam@example.com", detail: "“Voided”" });
    expect(entries[1].detail).toContain("answered HTTP 504");
  });

  it("a refused attempt says what was tried and why", () => {
    const [entry] = buildTimeline(invoice, [
      { at: at("2026-05-01T13:00:00Z"), actorEmail: "viewer@example.com", action: "invoice.status_change", detail: { outcome: "refused", role: "viewer", from: "pending", to: "cancelled", reason: "Customer asked" } },
    ]);
    expect(entry).toMatchObject({
      title: "Change to Cancelled refused; nothing changed",
      detail: "The viewer role may not change statuses. Reason given: “Customer asked”",
      tone: "bad",
    });
  });

  it("shows the provider's own last update when no console change explains it", () => {
    const entries = buildTimeline(invoice, []);
    expect(entries[0]).toMatchObject({ title: "Last updated (now Cancelled)", at: invoice.updated_at });
  });
});
