import { describe, expect, it } from "vitest";
import { normaliseInvoice } from "@/lib/console/upstream/normalise";
import type { Invoice } from "@/lib/contract";
import { buildTimeline } from "./timeline";

const invoice: Invoice = normaliseInvoice({
  invoice_id: "invoice_x",
  order_id: "O-1",
  status: "cancelled",
  fiat_amount: 1,
  fiat_currency: "EUR",
  crypto_amount: 1,
  currency: "BTC",
  created_at: "2026-05-01T10:00:00.000Z",
  updated_at: "2026-05-01T12:00:00.000Z",
  payment: { paid_at: "2026-05-01T10:05:00.000Z" },
})!;
const at = (iso: string) => new Date(iso);

describe("buildTimeline", () => {
  it("merges the invoice's dates with every attempt in the audit log, newest first", () => {
    const entries = buildTimeline(invoice, [
      {
        at: at("2026-05-01T11:00:00Z"),
        actorEmail: "viewer@example.com",
        action: "invoice.status_change",
        detail: { outcome: "refused", role: "viewer" },
      },
      {
        at: at("2026-05-01T11:30:00Z"),
        actorEmail: "sam@example.com",
        action: "invoice.status_change",
        detail: { outcome: "failed", from: "pending", to: "cancelled", upstream_status: 504, reason: "Voided" },
      },
      {
        at: at("2026-05-01T12:00:00Z"),
        actorEmail: "sam@example.com",
        action: "invoice.status_change",
        detail: { outcome: "changed", from: "pending", to: "cancelled", reason: "Voided" },
      },
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

  it("a change sent on approval is the asker's, with their reason, approved by whoever sent it", () => {
    const [entry] = buildTimeline(invoice, [
      {
        at: at("2026-05-01T13:00:00Z"),
        actorEmail: "admin@example.com",
        action: "invoice.status_change",
        detail: { outcome: "changed", from: "pending", to: "cancelled", reason: "Customer asked", requested_by: "finance@example.com" },
      },
    ]);
    expect(entry).toMatchObject({ actor: "finance@example.com, approved by admin@example.com", detail: "“Customer asked”" });
  });

  it("a change not sent because another of the invoice was being sent says so", () => {
    const [entry] = buildTimeline(invoice, [
      {
        at: at("2026-05-01T13:00:00Z"),
        actorEmail: "sam@example.com",
        action: "invoice.status_change",
        detail: { outcome: "busy", to: "cancelled", reason: "Voided" },
      },
    ]);
    expect(entry).toMatchObject({
      title: "Change to Cancelled not sent: another change of it was being sent",
      detail: "Reason given: “Voided”",
      tone: "bad",
      actor: "sam@example.com",
    });
  });

  it("a refused attempt says what was tried and why", () => {
    const [entry] = buildTimeline(invoice, [
      {
        at: at("2026-05-01T13:00:00Z"),
        actorEmail: "viewer@example.com",
        action: "invoice.status_change",
        detail: { outcome: "refused", role: "viewer", from: "pending", to: "cancelled", reason: "Customer asked" },
      },
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

  it("shows every webhook delivery attempt from the provider's log: status, latency, the answer, or the error", () => {
    const entries = buildTimeline(
      invoice,
      [
        {
          at: at("2026-05-01T13:00:00Z"),
          actorEmail: "ada@example.com",
          action: "webhook.simulate",
          detail: {
            status: "completed",
            outcome: "sent",
            answer: { status: "pending", message: "Sent to https://shop.example/hook: HTTP 500." },
          },
        },
      ],
      {
        source: "deliveries",
        deliveries: [
          {
            webhook_id: "msg_1",
            invoice_id: null,
            type: "invoice.status_changed",
            url: "https://shop.example/hook",
            simulated: true,
            status: "completed",
            state: "delivered",
            created_at: "2026-05-01T13:00:00.000Z",
            next_attempt_at: null,
            attempts: [
              {
                attempt: 1,
                at: "2026-05-01T13:00:00.100Z",
                response_status: 500,
                duration_ms: 41.6,
                response_body: "down for\nmaintenance",
                error: "the receiver answered HTTP 500",
                redelivery: false,
              },
              {
                attempt: 2,
                at: "2026-05-01T13:00:05.100Z",
                response_status: 200,
                duration_ms: 12,
                response_body: "",
                error: null,
                redelivery: false,
              },
            ],
          },
          {
            webhook_id: "msg_0",
            invoice_id: null,
            type: "invoice.status_changed",
            url: "https://nowhere.example/hook",
            simulated: false,
            status: "cancelled",
            state: "failed",
            created_at: "2026-05-01T12:00:00.000Z",
            next_attempt_at: null,
            attempts: [
              {
                attempt: 1,
                at: "2026-05-01T12:00:00.200Z",
                response_status: null,
                duration_ms: 3,
                response_body: null,
                error: "could not resolve nowhere.example",
                redelivery: false,
              },
            ],
          },
        ],
      },
    );
    expect(entries.slice(0, 3).map((e) => [e.title, e.tone])).toEqual([
      ["Test webhook (Completed) attempt 2 delivered: HTTP 200 in 12 ms", "good"],
      ["Test webhook (Completed) not delivered: HTTP 500 in 42 ms", "bad"],
      ["Test webhook requested (Completed)", "neutral"],
    ]);
    expect(entries[1].detail).toBe("https://shop.example/hook · “down for maintenance”");
    expect(entries[0].detail).toBe("https://shop.example/hook");
    expect(entries[2]).toMatchObject({ actor: "ada@example.com", detail: "Sent to https://shop.example/hook: HTTP 500." });
    expect(entries.find((e) => e.title.startsWith("Webhook (Cancelled)"))).toMatchObject({
      title: "Webhook (Cancelled) not delivered: could not resolve nowhere.example",
      tone: "bad",
    });
  });

  it("puts a change before the webhook it caused, however late the provider answered the change", () => {
    const delivery = (at: string) => ({
      webhook_id: "msg_2",
      invoice_id: null,
      type: "invoice.status_changed",
      url: "https://shop.example/hook",
      simulated: false,
      status: "cancelled",
      state: "delivered" as const,
      created_at: at,
      next_attempt_at: null,
      attempts: [{ attempt: 1, at, response_status: 200, duration_ms: 9, response_body: "", error: null, redelivery: false }],
    });
    const change = (recordedAt: string, sentAt?: string) => ({
      at: at(recordedAt),
      actorEmail: "sam@example.com",
      action: "invoice.status_change",
      detail: { from: "pending", to: "cancelled", outcome: "changed", ...(sentAt ? { sent_at: sentAt } : {}) },
    });
    // Sent at .000, the webhook delivered at .020, the change recorded once the provider answered, at .050.
    const late = buildTimeline(invoice, [change("2026-05-01T14:00:00.050Z", "2026-05-01T14:00:00.000Z")], {
      source: "deliveries",
      deliveries: [delivery("2026-05-01T14:00:00.020Z")],
    });
    expect(late.slice(0, 2).map((e) => e.title)).toEqual([
      "Webhook (Cancelled) delivered: HTTP 200 in 9 ms",
      "Status changed from Pending to Cancelled",
    ]);
    // At the very same instant, the cause is still listed below its effect.
    const tie = buildTimeline(invoice, [change("2026-05-01T14:00:00.000Z")], {
      source: "deliveries",
      deliveries: [delivery("2026-05-01T14:00:00.000Z")],
    });
    expect(tie.slice(0, 2).map((e) => e.title)).toEqual([
      "Webhook (Cancelled) delivered: HTTP 200 in 9 ms",
      "Status changed from Pending to Cancelled",
    ]);
  });

  it("without a deliveries log, shows what the console's inbox received for the invoice", () => {
    const entries = buildTimeline(invoice, [], {
      source: "inbox",
      entries: [
        {
          id: "e1",
          seq: 1,
          received_at: "2026-05-01T14:00:00.000Z",
          verdict: "not_verified",
          reason: "No signature",
          message_id: null,
          invoice_id: "invoice_x",
          event_type: "invoice.updated",
          headers: {},
          body: "{}",
          body_bytes: 2,
          truncated: false,
        },
        {
          id: "e2",
          seq: 2,
          received_at: "2026-05-01T14:01:00.000Z",
          verdict: "invalid",
          reason: "No match",
          message_id: "msg_9",
          invoice_id: "invoice_x",
          event_type: "invoice.status_changed",
          headers: {},
          body: "{}",
          body_bytes: 2,
          truncated: false,
        },
      ],
    });
    expect(entries.slice(0, 2).map((e) => [e.title, e.detail, e.tone])).toEqual([
      ["Webhook received in the console's inbox: signature invalid", "invoice.status_changed · msg_9", "bad"],
      ["Webhook received in the console's inbox: not verified", "invoice.updated", "neutral"],
    ]);
  });
});

describe("buildTimeline: an archived record", () => {
  const archived: Invoice = normaliseInvoice({
    invoice_id: "invoice_a",
    order_id: "HIST-1",
    status: "archived",
    fiat_amount: 10,
    fiat_currency: "EUR",
    crypto_amount: 0.001,
    currency: "BTC",
    created_at: "2024-03-01T09:00:00.000Z",
    updated_at: "2026-05-02T08:00:00.000Z",
  })!;

  it("says who recorded it and when, and that explains the provider's last update", () => {
    const entries = buildTimeline(archived, [
      {
        at: at("2026-05-02T08:00:00.400Z"),
        actorEmail: "finance@example.com",
        action: "invoice.archive",
        detail: { outcome: "created", upstream_status: 201, order_id: "HIST-1", sent: {} },
      },
    ]);
    expect(entries.map((e) => e.title)).toEqual(["Recorded as an archived invoice", "Invoice created"]);
    expect(entries[0]).toMatchObject({ actor: "finance@example.com", at: "2026-05-02T08:00:00.400Z" });
  });

  it("without the console's record (archived elsewhere) shows only the provider's dates", () => {
    expect(buildTimeline(archived, []).map((e) => e.title)).toEqual(["Last updated (now Archived)", "Invoice created"]);
  });
});
