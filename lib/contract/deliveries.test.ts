import { describe, expect, it } from "vitest";
import { deliveryLogSearchParams, deliveryViewHref, readDeliveryView, toDeliveryQuery } from "./deliveries";

describe("the deliveries view's address", () => {
  it("reads what it knows and leaves out the rest: an unknown state, a day that is no date, a page that is no page", () => {
    expect(readDeliveryView({ state: "failed", invoice: " invoice_1 ", from: "2026-03-01", to: "2026-03-31", page: "3" })).toEqual({
      state: "failed",
      invoice: "invoice_1",
      from: "2026-03-01",
      to: "2026-03-31",
      page: 3,
    });
    expect(readDeliveryView({ state: "sent", from: "March", to: "2026-02-30x", page: "-1" })).toEqual({
      state: null,
      invoice: null,
      from: null,
      to: null,
      page: 1,
    });
  });

  it("writes only what differs from the defaults, so Failed is one short link", () => {
    expect(deliveryViewHref({ state: "failed", page: 1 })).toBe("/webhooks/deliveries?state=failed");
    expect(deliveryViewHref({ invoice: "inv 1", page: 2 })).toBe("/webhooks/deliveries?invoice=inv+1&page=2");
    // A view without a state still follows its job: the job is one more parameter, not a suffix.
    expect(deliveryViewHref({ invoice: "inv 1" }, "job-1")).toBe("/webhooks/deliveries?invoice=inv+1&job=job-1");
    expect(deliveryViewHref({}, "job-1")).toBe("/webhooks/deliveries?job=job-1");
  });
});

describe("a view as the provider's query", () => {
  it("takes whole days in the business time zone, both included, as exclusive instants", () => {
    const view = { state: null, invoice: null, from: "2026-03-29", to: "2026-03-29", page: 1 };
    // Berlin moves its clocks on 29 March 2026: a 23-hour day, from 23:00Z the day before to 22:00Z.
    const berlin = toDeliveryQuery(view, "Europe/Berlin");
    expect(berlin.success && berlin.data).toMatchObject({
      created_after: "2026-03-28T22:59:59.999Z",
      created_before: "2026-03-29T22:00:00.000Z",
      page: 1,
      page_size: 20,
    });
    const utc = toDeliveryQuery(view, "UTC");
    expect(utc.success && deliveryLogSearchParams(utc.data).toString()).toBe(
      "created_after=2026-03-28T23%3A59%3A59.999Z&created_before=2026-03-30T00%3A00%3A00.000Z&page=1&page_size=20",
    );
  });

  it("passes state and invoice on as given", () => {
    const query = toDeliveryQuery({ state: "retrying", invoice: "inv_8Hq2x", from: null, to: null, page: 2 }, "UTC");
    expect(query.success && deliveryLogSearchParams(query.data).toString()).toBe("state=retrying&invoice_id=inv_8Hq2x&page=2&page_size=20");
  });

  it("leaves out a bound past the calendar's ends, in any zone, instead of refusing the view", () => {
    const ends = { state: null, invoice: null, from: "0001-01-01", to: "9999-12-31", page: 1 };
    for (const zone of ["UTC", "Europe/Berlin", "America/New_York", "Pacific/Kiritimati"]) {
      const query = toDeliveryQuery(ends, zone);
      expect(query.success, zone).toBe(true);
      for (const bound of [query.data?.created_after, query.data?.created_before]) {
        if (bound) expect(bound >= "0001-01-01T00:00:00.000Z" && bound <= "9999-12-31T23:59:59.999Z", `${zone} ${bound}`).toBe(true);
      }
    }
    // UTC's calendar ends are the API's own: neither bound is left.
    expect(toDeliveryQuery(ends, "UTC").data).toEqual({ page: 1, page_size: 20 });
    // A bound past them inward selects nothing: refused, never dropped into "everything".
    const year0 = toDeliveryQuery({ ...ends, from: null, to: "0000-06-01" }, "UTC");
    expect(year0.error?.issues.map((i) => i.path.join("/"))).toEqual(["created_before"]);
  });

  it("refuses a range that ends before it starts, naming created_before", () => {
    const query = toDeliveryQuery({ state: null, invoice: null, from: "2026-03-10", to: "2026-03-01", page: 1 }, "UTC");
    expect(query.success).toBe(false);
    expect(query.error?.issues.map((i) => i.path.join("/"))).toEqual(["created_before"]);
  });
});
