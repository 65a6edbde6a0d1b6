import { describe, expect, it } from "vitest";
import { activityReasons } from "@/lib/contract/activity-words";
import { ACTIVITY_CSV_COLUMNS, activityCsvCells } from "./export";

/* One activity entry as the CSV writes it: the outcome beside the kind, and its text safe to open. */
const entry = {
  seq: 7,
  at: "2026-11-28T04:40:00.000Z",
  actor_email: "viewer@example.com",
  action: "invoice.status_change",
  target: "invoice:invoice_0",
  detail: { to: "cancelled", reason: "+HB\u0007\u202e", outcome: "refused", permission: "invoices:change_status" },
  request_id: null,
};
const cell = (cells: (string | number)[], column: (typeof ACTIVITY_CSV_COLUMNS)[number]) => cells[ACTIVITY_CSV_COLUMNS.indexOf(column)];

describe("activityCsvCells", () => {
  it("says a refused attempt was refused, beside what it attempted", () => {
    const cells = activityCsvCells(entry);
    expect(cells).toHaveLength(ACTIVITY_CSV_COLUMNS.length);
    expect(cell(cells, "outcome")).toBe("Refused");
    expect(cell(activityCsvCells({ ...entry, detail: { to: "cancelled", outcome: "changed" } }), "outcome")).toBe("Changed");
    expect(cell(activityCsvCells({ ...entry, action: "user.role", detail: {} }), "outcome")).toBe("");
  });

  it("writes a reason's controls by their code and neutralises its formula", () => {
    const cells = activityCsvCells(entry);
    expect(cell(cells, "reason")).toBe("'+HB<U+0007><U+202E>");
    expect(cell(cells, "detail")).not.toMatch(/[\u0007\u202e]/u);
  });
});

describe("activityReasons", () => {
  const rejected = { ...entry, action: "approval.rejected", detail: { reason: "Paid off-chain", decision_reason: "Nothing received" } };

  it("gives a decision's own reason first, and the request's as what was asked", () => {
    expect(activityReasons(rejected)).toEqual([
      { label: "Reason", text: "Nothing received" },
      { label: "Asked because", text: "Paid off-chain" },
    ]);
    expect(cell(activityCsvCells(rejected), "reason")).toBe("Nothing received");
  });

  it("gives an entry's one reason, or none", () => {
    expect(activityReasons({ detail: { reason: "Voided order" } })).toEqual([{ label: "Reason", text: "Voided order" }]);
    expect(activityReasons({ detail: { reason: "", decision_reason: null } })).toEqual([]);
  });
});
