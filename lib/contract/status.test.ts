import { describe, expect, it } from "vitest";
import { awaitsPayment } from "./status";

describe("awaitsPayment", () => {
  it("only while a payment is still expected", () => {
    expect(["new", "pending", "paid_partial"].map(awaitsPayment)).toEqual([true, true, true]);
    expect(["completed", "expired", "cancelled", "archived", "refunded", null].map(awaitsPayment)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
