import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import Papa from "papaparse";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog } from "@/lib/console/schema";
import { EXPORT_INCOMPLETE, EXPORT_TOTAL_HEADER, type Invoice, invoiceListQueryToSearchParams } from "@/lib/contract";
import { type InvoiceListState, invoiceListParsers, toListQuery } from "@/lib/contract/invoice-list-state";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { type Db, getDatabase } from "@/lib/platform/db";
import { invoices as invoiceTable } from "@/lib/sandbox/schema";
import { createTestMerchant } from "@/test/sandbox-fixtures";

/**
 * GET /api/invoices/export through the console's real route, its real upstream client and real HTTP, to the
 * sandbox's own GET /invoices on PGlite. The stand-in in between only forwards, and misbehaves when a test
 * asks it to (a failing page, invoices added while the walk runs).
 */
type Route = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
let server: Server;
let db: Db;
let merchant: { merchantId: string; key: string };
let exportRoute: Route;
let listRoute: Route;
let sandboxList: Route;
let cookie: string;
let pagesAsked: number[] = [];
let beforePage: (page: number) => Promise<number | void> = async () => {};

const DAY = 86_400_000;
const START = Date.parse("2026-01-01T00:00:00Z");
const STATUSES = ["new", "pending", "completed", "expired", "cancelled", "paid_partial"];
const CURRENCIES = ["BTC", "ETH", "USDT"];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox.test");
    const page = Number(url.searchParams.get("page") ?? 1);
    pagesAsked.push(page);
    const failWith = await beforePage(page);
    if (failWith) return void res.writeHead(failWith, { "content-type": "application/json" }).end('{"message":"boom"}');
    const answer = await sandboxList(
      new Request(`http://sandbox.test/sandbox${url.pathname}${url.search}`, { headers: { "api-key": merchant.key } }),
      { params: Promise.resolve() as never },
    );
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.INVOICING_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  process.env.INVOICING_API_KEY = "sk_test_export";
  // The sandbox is served here beside a configured upstream (its own route handler, behind the stand-in).
  process.env.SANDBOX_ENABLED = "true";

  db = await getDatabase();
  // 250 invoices over three months: three provider pages, every status and currency, amounts with ties.
  merchant = await createTestMerchant(
    db,
    Array.from({ length: 250 }, (_, i) => ({
      createdAt: new Date(START + i * 8 * 3_600_000 + (i % 7) * 60_000),
      status: STATUSES[i % STATUSES.length],
      currency: CURRENCIES[i % CURRENCIES.length],
      fiatAmount: 5 + ((i * 37) % 40),
      cryptoAmount: 0.0001 * (1 + ((i * 13) % 50)),
      orderName: i % 10 === 0 ? `=Order, "${i}"\nsecond line` : `Order ${i}`,
    })),
  );
  ({ GET: exportRoute } = await import("@/app/api/invoices/export/route"));
  ({ GET: listRoute } = await import("@/app/api/invoices/route"));
  ({ GET: sandboxList } = await import("@/app/sandbox/api/v1/invoices/route"));
  cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("viewer");
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  pagesAsked = [];
  beforePage = async () => {};
});

const call = (route: Route, path: string) =>
  route(new Request(`http://console.test${path}`, { headers: { cookie } }), { params: Promise.resolve() as never });

const state = (raw: Record<string, string>): InvoiceListState => {
  const parsed = Object.fromEntries(
    Object.entries(invoiceListParsers).map(([key, parser]) => [key, raw[key] === undefined ? null : parser.parse(raw[key])]),
  );
  return {
    ...parsed,
    page: parsed.page ?? 1,
    page_size: parsed.page_size ?? 20,
    sort_by: parsed.sort_by ?? "created_at",
    sort_order: parsed.sort_order ?? "desc",
  } as InvoiceListState;
};

/** What the table shows for this view, page after page of 20, as the browser fetches it. */
async function tableRows(query: InvoiceViewQuery): Promise<{ items: Invoice[]; total: number }> {
  const items: Invoice[] = [];
  for (let page = 1; ; page++) {
    const body = await (await call(listRoute, `/api/invoices?${invoiceListQueryToSearchParams({ ...query, page, page_size: 20 })}`)).json();
    items.push(...body.items);
    if (!body.pagination.has_next) return { items, total: body.pagination.total_records };
  }
}

const exportPath = (query: InvoiceViewQuery, format: string) => {
  const { page: _p, page_size: _s, ...filter } = query;
  return `/api/invoices/export?format=${format}&${invoiceListQueryToSearchParams(filter)}`;
};
const csvRows = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

describe("GET /api/invoices/export", () => {
  const views: Record<string, string>[] = [
    {},
    { status: "completed", sort_by: "fiat_amount", sort_order: "asc" },
    { currency: "ETH", from: "2026-01-10", to: "2026-02-20", sort_by: "crypto_amount", sort_order: "desc" },
    { status: "pending", currency: "ETH", sort_by: "updated_at", sort_order: "asc" },
  ];

  it.each(views)("holds exactly the table's rows for the view %j, in its order", async (view) => {
    const query = toListQuery(state(view), "UTC");
    const table = await tableRows(query);
    expect(table.items.length).toBeGreaterThan(0);

    const csv = await call(exportRoute, exportPath(query, "csv"));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(Number(csv.headers.get(EXPORT_TOTAL_HEADER))).toBe(table.total);
    const rows = csvRows(await csv.text());
    expect(rows.map((r) => r.invoice_id)).toEqual(table.items.map((i) => i.invoice_id));
    // Amounts are the table's decimal strings, digit for digit.
    expect(rows.map((r) => [r.status, r.currency, r.created_at, r.fiat_amount, r.crypto_amount])).toEqual(
      table.items.map((i) => [i.status, i.currency, i.created_at, i.fiat_amount, i.crypto_amount]),
    );

    // The JSON export's amounts are raw JSON numbers with those digits: read them back as their text.
    const AMOUNTS = new Set(["fiat_amount", "crypto_amount", "amount_due", "amount_received", "rate", "amount"]);
    const json = parseLossless(await (await call(exportRoute, exportPath(query, "json"))).text(), (key, value) =>
      isLosslessNumber(value) ? (AMOUNTS.has(key) ? value.value : value.valueOf()) : value,
    ) as { items: Invoice[] };
    expect(json).toMatchObject({ complete: true, row_count: table.total, export: { total_records: table.total } });
    expect(json.items).toEqual(table.items);
  });

  it("answers a view that starts after the export does (up to 9999-12-31) with an empty file, not a failure", async () => {
    for (const format of ["csv", "json"]) {
      const response = await call(exportRoute, `/api/invoices/export?format=${format}&created_after=9999-12-31T23:59:59.999Z`);
      const text = await response.text();
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="invoices_all_from_9999-12-31.${format}"`);
      expect({ format, status: response.status, total: response.headers.get(EXPORT_TOTAL_HEADER) }).toEqual({
        format,
        status: 200,
        total: "0",
      });
      if (format === "csv") expect(csvRows(text)).toEqual([]);
      else expect(JSON.parse(text)).toMatchObject({ complete: true, row_count: 0, items: [] });
    }
  });

  it("walks the provider 100 at a time and names the file after its filter", async () => {
    const query = toListQuery(state({ status: "cancelled", from: "2026-01-01", to: "2026-03-31" }), "UTC");
    const response = await call(exportRoute, exportPath(query, "csv"));
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="invoices_cancelled_2026-01-01_2026-03-31.csv"');
    await response.text();
    const all = await call(exportRoute, "/api/invoices/export?format=csv");
    expect(csvRows(await all.text())).toHaveLength(250);
    expect(pagesAsked.slice(-3)).toEqual([1, 2, 3]);
  });

  it("records in the audit log who exported which filter", async () => {
    const response = await call(exportRoute, "/api/invoices/export?format=json&status=expired&sort_by=fiat_amount&bom=1");
    await response.text();
    const [entry] = (await db.select().from(auditLog).where(eq(auditLog.action, "invoices.export"))).filter(
      (e) => (e.detail.filter as { status?: string[] }).status?.join() === "expired",
    );
    expect(entry.actorEmail).toMatch(/^viewer-.*@test\.invalid$/);
    expect(entry.target).toBe("invoices");
    expect(entry.detail).toMatchObject({
      format: "json",
      bom: true,
      filter: { status: ["expired"], sort_by: "fiat_amount", sort_order: "desc", created_before: expect.any(String) },
      total_records: expect.any(Number),
    });
  });

  it("ends the file with a visible mark when the provider fails midway", async () => {
    beforePage = async (page) => (page === 3 ? 503 : undefined);
    const csv = await call(exportRoute, "/api/invoices/export?format=csv&sort_order=asc");
    expect(csv.status).toBe(200);
    const lines = Papa.parse<string[]>(await csv.text(), { skipEmptyLines: true }).data;
    expect(lines).toHaveLength(1 + 200 + 1);
    expect(lines.at(-1)![0]).toMatch(
      new RegExp(
        `^${EXPORT_INCOMPLETE}: only the first 200 rows are here\\. The invoicing API failed midway \\(.+HTTP 503.*\\)\\. Export again\\.$`,
      ),
    );

    const json = await (await call(exportRoute, "/api/invoices/export?format=json&sort_order=asc")).json();
    expect(json).toMatchObject({ complete: false, row_count: 200, error: { status: 502, code: "upstream_error" } });
    expect(json.items).toHaveLength(200);
  });

  it("answers a problem, not a file, when the provider fails on the first page", async () => {
    beforePage = async () => 500;
    const response = await call(exportRoute, "/api/invoices/export?format=csv");
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ code: "upstream_error" });
  });

  it("refuses an unknown format or filter before asking the provider", async () => {
    for (const [path, pointer] of [
      ["/api/invoices/export?format=xml", "/format"],
      ["/api/invoices/export", "/format"],
      ["/api/invoices/export?format=csv&status=paid", "/status"],
      ["/api/invoices/export?format=csv&bom=yes", "/bom"],
    ] as const) {
      const response = await call(exportRoute, path);
      expect(response.status, path).toBe(422);
      expect((await response.json()).errors[0].pointer, path).toBe(pointer);
    }
    expect(pagesAsked).toEqual([]);
  });

  it("neither duplicates nor loses a row when invoices are added while the walk runs", async () => {
    const query = toListQuery(state({ sort_by: "created_at", sort_order: "asc" }), "UTC");
    const before = (await tableRows(query)).items.map((i) => i.invoice_id);
    pagesAsked = [];
    const added: string[] = [];
    beforePage = async (page) => {
      if (page !== 2) return;
      // One invoice made now, and one back-dated before all others (the archive can do that): it pushes every
      // row one place down, so page 2 would start with page 1's last row.
      for (const createdAt of [new Date(), new Date(START - DAY)]) {
        const [row] = await db
          .insert(invoiceTable)
          .values({
            id: uuidv7({ msecs: createdAt.getTime() }),
            merchantId: merchant.merchantId,
            orderId: `ADDED-${createdAt.getTime()}`,
            status: "new",
            fiatAmount: "1",
            cryptoAmount: "0.1",
            currency: "BTC",
            allowedErrorPercent: 1,
            createdAt,
            updatedAt: createdAt,
          })
          .returning();
        added.push(`invoice_${row.id}`);
      }
    };
    const response = await call(exportRoute, exportPath(query, "csv"));
    expect(Number(response.headers.get(EXPORT_TOTAL_HEADER))).toBe(before.length);
    const ids = csvRows(await response.text()).map((r) => r.invoice_id);
    // 251 rows under the bound after the back-dated one: page 2 began with page 1's last row, written once.
    expect(pagesAsked).toEqual([1, 2, 3]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(before);
    for (const id of added) expect(ids).not.toContain(id);
  });
});
