import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { ACTIVITY_CSV_COLUMNS } from "@/lib/console/activity/export";
import { recordAudit } from "@/lib/console/audit";
import { EXPORT_TOTAL_HEADER } from "@/lib/contract";
import { activityListSchema } from "@/lib/contract/activity";
import type { Role } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";

/**
 * GET /api/activity, its export and its verification through the console's real routes: who may read them, the
 * filters (the page's own parameters), exact counts, the file being exactly the view, formula-safe, and the
 * export recorded in the log it exports.
 */
type Route = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
const routes = {} as Record<"list" | "export" | "verify", Route>;
const cookies = {} as Record<Role, string>;
const people = { ana: { id: "u-ana", email: "ana@activity.test" }, bo: { id: "u-bo", email: "bo@activity.test" } };

async function get(route: Route, path: string, role: Role = "finance") {
  return route(new Request(`http://console.test${path}`, { headers: { cookie: cookies[role] } }), { params: Promise.resolve() as never });
}

beforeAll(async () => {
  const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
  for (const role of ["viewer", "finance", "support", "admin"] as Role[]) cookies[role] = await signedInCookie(role);
  ({ GET: routes.list } = await import("@/app/api/activity/route"));
  ({ GET: routes.export } = await import("@/app/api/activity/export/route"));
  ({ GET: routes.verify } = await import("@/app/api/activity/verify/route"));
  const db = await getDatabase();
  // 30 cancellations by Ana, 10 completions by Bo, one with a reason a spreadsheet would run.
  for (let i = 0; i < 30; i++) {
    await recordAudit(db, {
      actor: people.ana,
      action: "invoice.status_change",
      target: `invoice:inv_a${i}`,
      detail: {
        from: "pending",
        to: "cancelled",
        reason: i === 7 ? "order voided twice" : "order voided",
        order_id: `ORD-A${i}`,
        outcome: "changed",
      },
    });
  }
  for (let i = 0; i < 10; i++) {
    await recordAudit(db, {
      actor: people.bo,
      action: "invoice.status_change",
      target: `invoice:inv_b${i}`,
      detail: {
        from: "paid_partial",
        to: "completed",
        reason: i === 3 ? '=HYPERLINK("http://evil")' : "settled by phone",
        outcome: "changed",
      },
    });
  }
});

describe("GET /api/activity", () => {
  it("is for admin and finance (audit:read): viewer and support are refused", async () => {
    expect((await get(routes.list, "/api/activity", "admin")).status).toBe(200);
    expect((await get(routes.list, "/api/activity", "finance")).status).toBe(200);
    for (const role of ["viewer", "support"] as Role[]) {
      const answer = await get(routes.list, "/api/activity", role);
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({ code: "forbidden", detail: expect.stringContaining("audit:read") });
    }
    const anonymous = await routes.list(new Request("http://console.test/api/activity"), { params: Promise.resolve() as never });
    expect(anonymous.status).toBe(401);
  });

  it("answers {items, pagination}, newest first, with exact counts", async () => {
    const body = activityListSchema.parse(await (await get(routes.list, "/api/activity?actor=ana@activity.test&page_size=25")).json());
    expect(body.pagination).toEqual({
      current_page: 1,
      page_size: 25,
      total_pages: 2,
      total_records: 30,
      has_next: true,
      has_previous: false,
    });
    expect(body.items[0]).toMatchObject({ actor_email: "ana@activity.test", action: "invoice.status_change", target: "invoice:inv_a29" });
    expect(body.items.map((e) => e.seq)).toEqual([...body.items.map((e) => e.seq)].sort((a, b) => b - a));
    const second = activityListSchema.parse(
      await (await get(routes.list, "/api/activity?actor=ana@activity.test&page_size=25&page=2")).json(),
    );
    expect(second.items).toHaveLength(5);
    expect(second.items.at(-1)!.target).toBe("invoice:inv_a0");
  });

  it("filters by kinds, an invoice id alone, text in the reason, and business days", async () => {
    const count = async (search: string) => (await (await get(routes.list, `/api/activity?${search}`)).json()).pagination.total_records;
    expect(await count("action=invoice.status_change")).toBe(40);
    expect(await count("action=invoice.status_change,user.created&actor=bo@activity.test")).toBe(10);
    expect(await count("target=inv_b3")).toBe(1);
    expect(await count("target=invoice:inv_b3")).toBe(1);
    // An order id, as the tables show it, names its invoice once the console's index knows it.
    const { indexInvoices } = await import("@/lib/console/mirror/store");
    await indexInvoices(await getDatabase(), [
      {
        invoice_id: "inv_a7",
        order_id: "ORD-A7",
        order_name: null,
        status: "cancelled",
        fiat_amount: "10",
        fiat_currency: "EUR",
        crypto_amount: null,
        currency: "BTC",
        allowed_error_percent: 1,
        callback_url: null,
        created_at: new Date().toISOString(),
        updated_at: null,
        expires_at: null,
        priced_in: null,
        payment: null,
        provider_fields: [],
      },
    ]);
    expect(await count("target=ORD-A7")).toBe(1);
    expect(await count("target=ORD-NOBODY")).toBe(0);
    expect(await count("q=TWICE")).toBe(1);
    expect(await count("q=%25")).toBe(0);
    // A control character (a NUL PostgreSQL's text cannot hold) is never part of a filter: read as a space.
    expect(await count("q=TW%00ICE")).toBe(0);
    for (const odd of ["q=%00", "actor=%00", "target=inv_b3%00"]) expect((await get(routes.list, `/api/activity?${odd}`)).status).toBe(200);
    expect(await count("target=inv_b3%00")).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(await count(`after=${today}&before=${today}&actor=ana@activity.test`)).toBe(30);
    expect(await count("after=2020-01-01&before=2020-01-31")).toBe(0);
  });

  it("refuses a filter it cannot read with 422 naming it", async () => {
    for (const [search, pointer] of [
      ["after=2026-02-30", "/after"],
      ["action=DROP TABLE", "/action/0"],
      ["page_size=1000", "/page_size"],
      ["after=2026-03-01&before=2026-02-01", "/after"],
    ]) {
      const answer = await get(routes.list, `/api/activity?${search}`);
      expect(answer.status, search).toBe(422);
      expect((await answer.json()).errors[0].pointer, search).toBe(pointer);
    }
  });
});

describe("GET /api/activity/export", () => {
  it("writes exactly the view's rows, every page of it, formula-safe, and records itself", async () => {
    const answer = await get(routes.export, "/api/activity/export?format=csv&actor=bo@activity.test");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get(EXPORT_TOTAL_HEADER)).toBe("10");
    const rows = Papa.parse<string[]>((await answer.text()).trim(), { header: false }).data;
    expect(rows[0]).toEqual([...ACTIVITY_CSV_COLUMNS]);
    expect(rows).toHaveLength(11);
    const reasons = rows.slice(1).map((r) => r[ACTIVITY_CSV_COLUMNS.indexOf("reason")]);
    expect(reasons).toContain('\'=HYPERLINK("http://evil")');
    expect(reasons.filter((r) => r === "settled by phone")).toHaveLength(9);

    const db = await getDatabase();
    const [recorded] = (
      (await db.execute(
        sql`select actor_email, detail from console.audit_log where action = 'activity.export' order by seq desc limit 1`,
      )) as unknown as {
        rows: { actor_email: string; detail: Record<string, unknown> }[];
      }
    ).rows;
    expect(recorded.detail).toMatchObject({ format: "csv", filter: { actor: "bo@activity.test" }, total_records: 10 });
  });

  it("holds the entries counted, not its own: a view its own entry belongs to still matches its recorded count", async () => {
    const answer = await get(routes.export, "/api/activity/export?format=csv&action=activity.export");
    const counted = Number(answer.headers.get(EXPORT_TOTAL_HEADER));
    const rows = Papa.parse<string[]>((await answer.text()).trim(), { header: false }).data.slice(1);
    expect(rows).toHaveLength(counted);
    const db = await getDatabase();
    const [own] = (
      (await db.execute(
        sql`select seq, detail from console.audit_log where action = 'activity.export' order by seq desc limit 1`,
      )) as unknown as {
        rows: { seq: number; detail: { total_records: number; through_seq: number } }[];
      }
    ).rows;
    expect(own.detail.total_records).toBe(counted);
    expect(rows.map((r) => Number(r[0]))).not.toContain(Number(own.seq));
    expect(Math.max(...rows.map((r) => Number(r[0])))).toBeLessThanOrEqual(own.detail.through_seq);
  });

  it("as JSON, the same rows and a count that says the file is complete", async () => {
    const answer = await get(routes.export, "/api/activity/export?format=json&actor=ana@activity.test&q=voided");
    const file = JSON.parse(await answer.text());
    expect(file).toMatchObject({ complete: true, row_count: 30, export: { total_records: 30 } });
    expect(file.items).toHaveLength(30);
  });

  it("is refused to those who may not read the log, and needs a format", async () => {
    expect((await get(routes.export, "/api/activity/export?format=csv", "support")).status).toBe(403);
    expect((await get(routes.export, "/api/activity/export")).status).toBe(422);
  });
});

describe("GET /api/activity/verify", () => {
  it("is for admins: answers how many entries verify and the newest entry's hash", async () => {
    expect((await get(routes.verify, "/api/activity/verify", "finance")).status).toBe(403);
    const answer = await get(routes.verify, "/api/activity/verify", "admin");
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({
      verified: expect.any(Number),
      first_broken: null,
      head: { seq: body.verified, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
  });
});
