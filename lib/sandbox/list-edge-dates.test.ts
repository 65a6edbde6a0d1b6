import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, lt } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/sandbox/api/v1/invoices/route";
import type { Db } from "@/lib/platform/db";
import { getSandboxDb } from "@/lib/sandbox";
import { invoices } from "@/lib/sandbox/schema";
import type { ApiInvoiceList } from "@/lib/sandbox/wire-schemas";
import { createTestMerchant } from "@/test/sandbox-fixtures";

// GET /invoices with created_after / created_before at the edges of time — the first and last days
// PostgreSQL and the contract can hold, before 1970, leap seconds, odd offsets — answers 200 with what a plain
// query finds, or a 422 naming the parameter; never a 500. On PGlite here, and on PostgreSQL when DATABASE_URL
// names one (CI: `DATABASE_URL=postgres://… TEST_ONLY=unit node scripts/test.mjs lib/sandbox`).

const BASE = "http://sandbox.test/sandbox/api/v1";
const MIN = Date.parse("0001-01-01T00:00:00.000Z");
const MAX = Date.parse("9999-12-31T23:59:59.999Z");
const DAY = 86_400_000;
const SORTS = {
  created_at: invoices.createdAt,
  updated_at: invoices.updatedAt,
  fiat_amount: invoices.fiatAmount,
  crypto_amount: invoices.cryptoAmount,
};

// The invoices: at the first and last instants the contract accepts, around midnights at both ends, before
// and at the epoch, on a leap day, and a few in an ordinary year.
const CREATED = [
  "0001-01-01T00:00:00.000Z",
  "0001-01-01T00:00:00.001Z",
  "0001-01-01T13:00:00.000Z",
  "0001-01-02T00:00:00.000Z",
  "0099-06-15T08:00:00.000Z",
  "1582-10-15T12:00:00.000Z",
  "1899-12-31T23:59:59.999Z",
  "1969-12-31T23:59:59.999Z",
  "1970-01-01T00:00:00.000Z",
  "2000-02-29T12:00:00.000Z",
  "2016-12-31T23:59:59.999Z",
  "2017-01-01T00:00:00.000Z",
  "2026-03-01T00:00:00.000Z",
  "2026-03-01T10:30:00.000Z",
  "2026-03-02T23:00:00.000Z",
  "9999-12-30T23:59:59.999Z",
  "9999-12-31T00:00:00.000Z",
  "9999-12-31T11:00:00.000Z",
  "9999-12-31T23:59:59.998Z",
  "9999-12-31T23:59:59.999Z",
].map((t) => Date.parse(t));

let db: Db;
let key: string;
let merchantId: string;

beforeAll(async () => {
  db = await getSandboxDb();
  ({ key, merchantId } = await createTestMerchant(
    db,
    CREATED.map((t, i) => ({
      // uuid v7 has no timestamps before 1970: plain random ids (the order's tie-break only needs them distinct).
      id: randomUUID(),
      createdAt: new Date(t),
      updatedAt: new Date(Math.min(t + (i % 4) * DAY, MAX)),
      status: i % 3 ? "completed" : "new",
      fiatAmount: 10 + (i % 5),
      cryptoAmount: 0.001 * (i + 1),
    })),
  ));
});

/** A created_after / created_before as sent, and the instant it names — null when the contract must refuse it. */
type Bound = { text: string; instant: number | null };

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** `t` written in the zone `offset` minutes east of UTC, in one of the forms ISO 8601 allows (or one it does not). */
function write(t: number, offset: number, form: "date" | "seconds" | "millis" | "nanos" | "leap"): Bound {
  const local = new Date(t + offset * 60_000);
  const year = local.getUTCFullYear();
  // Years outside 0000–9999 need the expanded form (+010000, -000001), which the contract does not take.
  const y = year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? "-" : "+"}${pad(Math.abs(year), 6)}`;
  const day = `${y}-${pad(local.getUTCMonth() + 1, 2)}-${pad(local.getUTCDate(), 2)}`;
  const inRange = (instant: number) => (/^\d{4}-/.test(day) && instant >= MIN && instant <= MAX ? instant : null);
  if (form === "date") return { text: day, instant: inRange(Date.parse(`${day}T00:00:00Z`)) };
  const zone =
    offset === 0 ? "Z" : `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60), 2)}:${pad(Math.abs(offset) % 60, 2)}`;
  const hms = `${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}`;
  const seconds = pad(local.getUTCSeconds(), 2);
  const ms = pad(local.getUTCMilliseconds(), 3);
  // A leap second (23:59:60) is not an instant the contract takes: the list refuses it with a 422.
  if (form === "leap") return { text: `${day}T23:59:60${zone}`, instant: null };
  const fraction = form === "seconds" ? "" : form === "millis" ? `.${ms}` : `.${ms}456789`;
  const whole = form === "seconds" ? t - local.getUTCMilliseconds() : t;
  return { text: `${day}T${hms}:${seconds}${fraction}${zone}`, instant: inRange(whole) };
}

// Instants anywhere from year 0 to year 10001, but mostly at the edges that matter: the ends of the
// contract's range, midnights, the epoch, and the seeded invoices (a millisecond either side).
const edges = [MIN, MAX, 0, Date.UTC(10000, 0, 1), Date.parse("0000-12-31T00:00:00Z"), ...CREATED];
const instant = fc.oneof(
  fc.tuple(fc.constantFrom(...edges), fc.constantFrom(-DAY, -3_600_000, -1, 0, 0, 1, 3_600_000, DAY)).map(([t, d]) => t + d),
  fc.integer({ min: Date.parse("0000-01-01T00:00:00Z"), max: Date.UTC(10001, 0, 1) }),
  fc.integer({ min: Date.parse("9999-12-29T00:00:00Z"), max: Date.UTC(10000, 0, 2) }),
  fc.integer({ min: Date.parse("0000-12-30T00:00:00Z"), max: Date.parse("0001-01-03T00:00:00Z") }),
);
// Zones from -23:59 to +23:59 the contract allows, the usual ones and odd ones.
const offset = fc.oneof(fc.constantFrom(0, 60, -60, 330, 345, -210, 840, -720), fc.integer({ min: -1439, max: 1439 }));
const form = fc.constantFrom("date", "seconds", "millis", "millis", "nanos", "leap") as fc.Arbitrary<
  "date" | "seconds" | "millis" | "nanos" | "leap"
>;
const bound = fc.tuple(instant, offset, form).map(([t, o, f]) => write(t, o, f));

async function list(params: URLSearchParams) {
  const response = await listRoute(new Request(`${BASE}/invoices?${params}`, { headers: { "api-key": key } }), {
    params: Promise.resolve({}) as never,
  });
  return { status: response.status, body: await response.json() };
}

/** The plain query: the same filter as a WHERE, the whole table, no rollup or buckets. */
async function plain(
  after: number | undefined,
  before: number | undefined,
  sortBy: keyof typeof SORTS,
  ascending: boolean,
  pageSize: number,
) {
  const where = and(
    eq(invoices.merchantId, merchantId),
    after !== undefined ? gt(invoices.createdAt, new Date(after)) : undefined,
    before !== undefined ? lt(invoices.createdAt, new Date(before)) : undefined,
  );
  const dir = ascending ? asc : desc;
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(where)
    .orderBy(dir(SORTS[sortBy]), dir(invoices.id))
    .limit(pageSize);
  const [{ n }] = await db.select({ n: count() }).from(invoices).where(where);
  return { total: n, ids: rows.map((r) => `invoice_${r.id}`) };
}

describe("GET /invoices at the edges of time", () => {
  it("the seeded invoices are where the test thinks (a plain query counts them all)", async () => {
    expect((await plain(undefined, undefined, "created_at", true, 100)).total).toBe(CREATED.length);
  });

  it.each([
    ["created_after=9999-12-31T23:59:59Z", 200, 2],
    ["created_after=9999-12-31T23:59:59.998Z", 200, 1],
    ["created_after=9999-12-31", 200, 3],
    ["created_before=9999-12-31T23:59:59.999Z", 200, CREATED.length - 1],
    ["created_before=9999-12-31T23:00:00Z", 200, CREATED.length - 2],
    ["created_after=0001-01-01&created_before=0001-01-02", 200, 2],
    ["created_before=0001-01-01T00:00:00.001Z", 200, 1],
    ["created_after=1969-12-31T23:59:59.998Z&created_before=1970-01-01T00:00:00.001Z", 200, 2],
    // 2026-02-28T20:30Z: the three of 2026 after it and the five of 9999.
    ["created_after=2026-03-01T10:30:00%2B14:00", 200, 8],
  ])("%s → %i, %i invoices", async (query, status, total) => {
    const { status: got, body } = await list(new URLSearchParams(query));
    expect(got).toBe(status);
    expect(body.pagination.total_records).toBe(total);
  });

  it.each([
    ["created_after=10000-01-01T00:00:00Z", "/created_after"],
    ["created_after=%2B010000-01-01T00:00:00Z", "/created_after"],
    ["created_before=9999-12-31T23:59:59-00:01", "/created_before"],
    ["created_after=0001-01-01T00:59:59%2B01:00", "/created_after"],
    ["created_before=0000-12-31", "/created_before"],
    ["created_after=2016-12-31T23:59:60Z", "/created_after"],
    ["created_before=9999-12-31T23:59:60Z", "/created_before"],
    ["created_after=2026-01-01T00:00:00%2B24:00", "/created_after"],
    ["created_before=2026-01-01T00:00:00-99:99", "/created_before"],
    ["created_after=2026-01-01T00:00:00%2B0530", "/created_after"],
  ])("%s → 422 naming %s", async (query, pointer) => {
    const { status, body } = await list(new URLSearchParams(query));
    expect(status).toBe(422);
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    expect(body.errors[0].detail).toMatch(/0001|ISO 8601/);
  });

  it("any instant or pair of them: a 200 that equals a plain query, or a 422 naming the parameter — never a 500", async () => {
    const seen = { ok: 0, refused: 0, found: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.option(bound, { nil: undefined }),
        fc.option(bound, { nil: undefined }),
        fc.constantFrom(...(Object.keys(SORTS) as (keyof typeof SORTS)[])),
        fc.boolean(),
        fc.constantFrom(3, 20),
        async (after, before, sortBy, ascending, pageSize) => {
          const params = new URLSearchParams({ sort_by: sortBy, sort_order: ascending ? "asc" : "desc", page_size: String(pageSize) });
          if (after) params.set("created_after", after.text);
          if (before) params.set("created_before", before.text);
          const { status, body } = await list(params);

          // Which parameters the contract must refuse, decided here from how the text was written.
          const refused = [after?.instant === null && "/created_after", before?.instant === null && "/created_before"].filter(Boolean);
          const ordered = after?.instant == null || before?.instant == null || after.instant < before.instant;
          if (refused.length || !ordered) {
            seen.refused++;
            expect({ status, pointers: body.errors?.map((e: { pointer: string }) => e.pointer) }).toEqual({
              status: 422,
              pointers: refused.length ? refused : ["/created_before"],
            });
            return;
          }
          expect(status, JSON.stringify(body)).toBe(200);
          seen.ok++;
          const reference = await plain(after?.instant ?? undefined, before?.instant ?? undefined, sortBy, ascending, pageSize);
          const answer = body as ApiInvoiceList;
          expect({ total: answer.pagination.total_records, ids: answer.items.map((i) => i.invoice_id) }).toEqual(reference);
          if (reference.total > 0 && reference.total < CREATED.length) seen.found++;
        },
      ),
      { numRuns: 100 },
    );
    // The runs met both answers, and ranges that cut the invoices somewhere (about half are 200s).
    expect(seen.ok).toBeGreaterThan(15);
    expect(seen.refused).toBeGreaterThan(15);
    expect(seen.found).toBeGreaterThan(5);
  });
});
