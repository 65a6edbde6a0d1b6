import { describe, expect, it } from "vitest";
import { Problem } from "@/lib/contract/problem";
import { applyFieldErrors, pointerToField, problemToFields } from "./problem-to-fields";

describe("pointerToField", () => {
  it.each([
    ["/order_id", "order_id"],
    ["/payment/address", "payment.address"],
    ["/items/0/amount", "items.0.amount"],
    ["#/order_id", "order_id"],
    ["order_id", "order_id"],
    ["/a~1b/c~0d", "a/b.c~d"],
  ])("%s → %s", (pointer, field) => {
    expect(pointerToField(pointer)).toBe(field);
  });

  it.each(["", "/", "#", null, undefined])("%s names the whole body", (pointer) => {
    expect(pointerToField(pointer)).toBeNull();
  });
});

describe("problemToFields", () => {
  const problem = new Problem({
    status: 422,
    code: "validation_failed",
    title: "The request is not valid",
    errors: [
      { pointer: "/order_id", code: "too_small", detail: "must not be empty" },
      { pointer: "/order_id", code: "too_big", detail: "must be at most 64 characters" },
      { pointer: "/payment/address", code: "invalid_string", detail: "is not a valid address" },
      { pointer: "/unknown_field", code: "unrecognized_keys", detail: "is not allowed" },
      { pointer: "", code: "invalid_type", detail: "The body must be a JSON object" },
    ],
  });

  it("keeps the first message for each field, by dotted name", () => {
    const { fields } = problemToFields(problem);
    expect(fields).toEqual({
      order_id: "must not be empty",
      "payment.address": "is not a valid address",
      unknown_field: "is not allowed",
    });
  });

  it("sends errors for fields the form does not show, and for the whole body, to the form", () => {
    const result = problemToFields(problem, { fields: ["order_id", "payment.address"] });
    expect(result.fields).toEqual({ order_id: "must not be empty", "payment.address": "is not a valid address" });
    expect(result.form).toEqual(["unknown_field is not allowed", "The body must be a JSON object"]);
  });

  it("falls back to the code when a provider sends no detail", () => {
    expect(problemToFields({ errors: [{ pointer: "/status", code: "invalid_enum_value" }] }).fields).toEqual({
      status: "invalid_enum_value",
    });
  });

  it("gives nothing for a problem without errors, or no problem", () => {
    expect(problemToFields(new Problem({ status: 502, code: "upstream", title: "Down" }))).toEqual({ fields: {}, form: [] });
    expect(problemToFields(null)).toEqual({ fields: {}, form: [] });
  });

  it("feeds a form library's setError and returns what is left for the form", () => {
    const set: [string, string][] = [];
    const left = applyFieldErrors(problemToFields(problem, { fields: ["order_id"] }), (field, message) => set.push([field, message]));
    expect(set).toEqual([["order_id", "must not be empty"]]);
    expect(left).toHaveLength(3);
  });
});
