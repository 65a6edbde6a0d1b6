import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUpstream } from "@/lib/console/upstream/client";
import { type Db, getDatabase, openDatabase } from "@/lib/platform/db";
import { type SearchProvider, startSearchProvider } from "@/test/search-provider";
import { searchIndex } from "./store";
import { createSearchSync, FILL_PAGES_AT_ONCE } from "./sync";

/*
 * The sync against a real local provider (./test-provider.ts) through lib/console/upstream, on the console's real
 * database (PGlite, or PostgreSQL with DATABASE_URL). "Two instances" are two syncs (two lease holders) on
 * two connections: two pools on PostgreSQL, PGlite's one connection otherwise.
 */
let provider: SearchProvider;
let db: Db;
let second: { db: Db; close: () => Promise<void> };

beforeAll(async () => {
  provider = await startSearchProvider();
  db = await getDatabase();
  second = process.env.DATABASE_URL ? await openDatabase(process.env.DATABASE_URL) : { db, close: async () => {} };
});

afterAll(async () => {
  await provider.close();
  await second.close();
});

beforeEach(async () => {
  provider.invoices.clear();
  provider.requests.length = 0;
  provider.resetMaxInFlight();
  provider.state.limited = null;
  provider.state.beforePage = null;
  provider.state.delayMs = 0;
  provider.state.gather = 0;
  provider.state.ignoresCreatedAfter = false;
  await db.execute(sql`delete from console.search_invoices`);
});

function seed(count: number, from = 1) {
  for (let n = from; n < from + count; n++) {
    provider.insert({ invoice_id: `inv_${n}`, order_id: `ORD-2611-${String(n).padStart(6, "0")}`, order_name: `Order number ${n}` });
  }
}

/** A sync (one console instance) with a clock the test moves; a shared id makes instances share one row. */
function makeSync(options: { id?: string; on?: Db; runMs?: number; syncSeconds?: number; pagesAtOnce?: number } = {}) {
  const clock = { now: Date.parse("2026-11-23T10:00:00Z") };
  const api = createUpstream({ baseUrl: provider.url, apiKey: "sk_test_search", timeoutMs: 5_000 });
  const sync = createSearchSync({
    db: async () => options.on ?? db,
    listInvoices: (query) => api.listInvoices(query),
    syncSeconds: options.syncSeconds ?? 60,
    pageIntervalMs: 0,
    // Four pages a batch, which the expectations below spell out; the default is checked on its own.
    pagesAtOnce: options.pagesAtOnce ?? 4,
    leaseMs: 10_000,
    runMs: options.runMs,
    id: options.id ?? `test-${randomUUID()}`,
    now: () => new Date(clock.now),
    sleep: async () => {},
  });
  return { sync, clock };
}

const orderIds = async (q: string) => (await searchIndex(db, q)).map((r) => r.order_id);
const listCalls = () => provider.requests.filter((r) => r.startsWith("GET /api/v1/invoices?"));

describe("first fill", () => {
  it("walks the whole list 100 a page, oldest first, and is then ready", async () => {
    seed(250);
    const { sync } = makeSync();
    expect(await sync.runOnce()).toBe("filled");
    // First the newest change (where the incremental walks will stop), then the list, oldest first.
    expect(listCalls()).toEqual([
      "GET /api/v1/invoices?page=1&page_size=100&sort_by=updated_at&sort_order=desc",
      ...[1, 2, 3].map((page) => `GET /api/v1/invoices?page=${page}&page_size=100&sort_by=created_at&sort_order=asc`),
    ]);
    const state = await sync.state(true);
    expect(state).toMatchObject({ state: "ready", indexed: 250, fill_total: 250, fill_page: null, upstream_calls: 4 });
    expect(await orderIds("ORD-2611-000250")).toEqual(["ORD-2611-000250"]);
  });

  it("reads each batch from the last invoice read, and resumes there after a stop, not from the start", async () => {
    seed(1000);
    const id = `test-${randomUUID()}`;
    const first = makeSync({ id, runMs: 0 });
    // runMs 0: one batch of pages a run, as if the process stopped after each.
    expect(await first.sync.runOnce()).toBe("filling");
    expect(await first.sync.runOnce()).toBe("filling");
    const reached = await first.sync.state();
    expect(reached).toMatchObject({ fill_page: 1, fill_read: 2 * (4 * 100 - 1) });
    // Each batch but the last reads its last invoice again (from its instant less a millisecond), counted once.
    // The second batch started after the 400th invoice (less a millisecond), from its first page again.
    const secondBatch = listCalls().slice(1 + 4);
    const after = (call: string) => new URL(call.slice(4), "http://x").searchParams.get("created_after");
    expect(secondBatch.map(after)).toEqual(
      Array(4).fill(new Date(Date.parse(provider.invoices.get("inv_400")!.created_at) - 1).toISOString()),
    );
    expect(secondBatch.map((r) => new URL(r.slice(4), "http://x").searchParams.get("page"))).toEqual(["1", "2", "3", "4"]);

    provider.requests.length = 0;
    const restarted = makeSync({ id });
    expect(await restarted.sync.runOnce()).toBe("filled");
    // The second batch began with the 400th again, so it ended at the 799th: 202 left, three pages.
    expect(listCalls().map(after)).toEqual(
      Array(3).fill(new Date(Date.parse(provider.invoices.get("inv_799")!.created_at) - 1).toISOString()),
    );
    expect(await restarted.sync.state(true)).toMatchObject({ indexed: 1000, fill_read: 1000, fill_total: 1000 });
  });

  it("reads on by page when a batch cannot move the cursor (all created in one millisecond)", async () => {
    for (let n = 1; n <= 950; n++) {
      provider.insert({ invoice_id: `inv_${String(n).padStart(4, "0")}`, order_id: `ORD-${n}`, created_at: "2026-01-01T00:00:00.000Z" });
    }
    provider.insert({ invoice_id: "inv_late", order_id: "ORD-late" });
    const { sync } = makeSync();
    expect(await sync.runOnce()).toBe("filled");
    const pages = listCalls()
      .slice(1)
      .map((r) => new URL(r.slice(4), "http://x").searchParams);
    // The first batch ends inside the one millisecond: its cursor (that instant less one) takes all 951 again…
    expect(pages.map((p) => `${p.get("created_after") ?? "-"} ${p.get("page")}`)).toEqual([
      "- 1",
      "- 2",
      "- 3",
      "- 4",
      "2025-12-31T23:59:59.999Z 1",
      "2025-12-31T23:59:59.999Z 2",
      "2025-12-31T23:59:59.999Z 3",
      "2025-12-31T23:59:59.999Z 4",
      // …and then it cannot move: the same cursor's next pages.
      "2025-12-31T23:59:59.999Z 5",
      "2025-12-31T23:59:59.999Z 6",
      "2025-12-31T23:59:59.999Z 7",
      "2025-12-31T23:59:59.999Z 8",
      "2025-12-31T23:59:59.999Z 9",
      "2025-12-31T23:59:59.999Z 10",
    ]);
    expect((await sync.state(true)).indexed).toBe(951);
  });

  it("reads the rest by page number from a provider that does not filter by created_after, once", async () => {
    seed(1_250);
    provider.state.ignoresCreatedAfter = true;
    const { sync } = makeSync();
    expect(await sync.runOnce()).toBe("filled");
    const pages = listCalls()
      .slice(1)
      .map((r) => new URL(r.slice(4), "http://x").searchParams);
    // The second batch came back from the list's start: from then on, pages of the whole list after what was read.
    expect(pages.map((p) => `${p.has("created_after") ? "after" : "-"} ${p.get("page")}`)).toEqual([
      ...["1", "2", "3", "4"].map((n) => `- ${n}`),
      ...["1", "2", "3", "4"].map((n) => `after ${n}`),
      ...["4", "5", "6", "7", "8", "9", "10", "11", "12", "13"].map((n) => `- ${n}`),
    ]);
    expect(await sync.state(true)).toMatchObject({ indexed: 1_250, fill_read: 1_250 });
  });

  it("reads several pages at once, its own calls not counted as people's", async () => {
    seed(1000);
    provider.state.gather = FILL_PAGES_AT_ONCE;
    const { sync } = makeSync({ pagesAtOnce: FILL_PAGES_AT_ONCE });
    expect(await sync.runOnce()).toBe("filled");
    expect(provider.maxInFlight()).toBe(FILL_PAGES_AT_ONCE);
    expect((await sync.state(true)).indexed).toBe(1000);
  });

  it("a 429 pauses it for Retry-After and it resumes at the same page", async () => {
    seed(900);
    const { sync, clock } = makeSync({ runMs: 0 });
    expect(await sync.runOnce()).toBe("filling");
    provider.state.limited = { retryAfter: "120" };
    expect(await sync.runOnce()).toBe("paused");
    const paused = await sync.state();
    expect(paused).toMatchObject({
      state: "filling",
      fill_page: 1,
      fill_read: 4 * 100 - 1,
      paused_reason: "rate_limited",
    });
    expect(Date.parse(paused.next_try_at) - clock.now).toBe(120_000);

    provider.state.limited = null;
    provider.requests.length = 0;
    clock.now += 119_000;
    expect(await sync.runOnce()).toBe("not_due");
    expect(provider.requests).toEqual([]);
    clock.now += 1_000;
    const outcome = await sync.runOnce();
    expect(outcome).toBe("filling");
    expect(listCalls()[0]).toContain(`page=1&`);
    expect(listCalls()[0]).toContain(
      `created_after=${encodeURIComponent(new Date(Date.parse(provider.invoices.get("inv_400")!.created_at) - 1).toISOString())}`,
    );
    expect((await sync.state()).paused_reason).toBeNull();
  });
});

describe("incremental sync", () => {
  it("finds inserted, changed and archived invoices, reading only back to what it had seen", async () => {
    seed(500);
    const { sync, clock } = makeSync();
    await sync.runOnce();
    await sync.runOnce(); // the walk that closes the fill's window
    provider.requests.length = 0;

    provider.insert({ invoice_id: "inv_new", order_id: "ORD-2611-900001", order_name: "Blue moon lamp" });
    provider.insert({ invoice_id: "inv_arch", order_id: "LEGACY-77", order_name: "Old ledger", status: "archived" });
    provider.change("inv_42", { status: "cancelled" });

    expect(await sync.runOnce()).toBe("not_due");
    clock.now += 60_000;
    expect(await sync.runOnce()).toBe("synced");
    // 500 invoices, 3 changes: one page of updated_at desc is enough.
    expect(listCalls()).toEqual(["GET /api/v1/invoices?page=1&page_size=100&sort_by=updated_at&sort_order=desc"]);
    expect(await orderIds("ORD-2611-900001")).toEqual(["ORD-2611-900001"]);
    expect((await searchIndex(db, "legacy-77"))[0]).toMatchObject({ invoice_id: "inv_arch", status: "archived" });
    expect((await searchIndex(db, "ORD-2611-000042"))[0]).toMatchObject({ invoice_id: "inv_42", status: "cancelled" });
    const state = await sync.state();
    expect(state.fresh_as_of).toBe(new Date(clock.now).toISOString());
    expect(state.last_walk_calls).toBe(1);
  });

  it("an invoice that changes while the walk runs is not lost: the next walk has it", async () => {
    seed(450);
    const { sync, clock } = makeSync();
    await sync.runOnce();
    await sync.runOnce();
    // 150 changes: the walk reads two pages. While page 1 is answered, an old invoice (deep in the walk's
    // pages) changes and jumps to the top, shifting the rest down under the walk.
    for (let n = 1; n <= 150; n++) provider.change(`inv_${n + 300}`, { order_name: `Renamed ${n}` });
    let raced = false;
    provider.state.beforePage = (page, sortBy) => {
      if (sortBy === "updated_at" && page === 2 && !raced) {
        raced = true;
        provider.change("inv_7", { status: "expired" });
      }
    };
    clock.now += 60_000;
    expect(await sync.runOnce()).toBe("synced");
    clock.now += 60_000;
    expect(await sync.runOnce()).toBe("synced");
    expect((await searchIndex(db, "ORD-2611-000007"))[0]).toMatchObject({ status: "expired" });
    expect((await searchIndex(db, "Renamed 150"))[0]).toMatchObject({ invoice_id: "inv_450" });
    expect((await sync.state(true)).indexed).toBe(450);
  });

  it("a 429 during a walk pauses it for Retry-After (an HTTP date too)", async () => {
    seed(10);
    const { sync, clock } = makeSync();
    await sync.runOnce();
    provider.state.limited = { retryAfter: new Date(Date.now() + 30_000).toUTCString() };
    const outcome = await sync.runOnce();
    expect(outcome).toBe("paused");
    const state = await sync.state();
    expect(state.paused_reason).toBe("rate_limited");
    const waitS = (Date.parse(state.next_try_at) - clock.now) / 1000;
    expect(waitS).toBeGreaterThanOrEqual(28);
    expect(waitS).toBeLessThanOrEqual(31);
  });
});

describe("one instance at a time", () => {
  it("two instances never walk at once: the second finds the lease taken", async () => {
    seed(400);
    provider.state.delayMs = 30;
    const id = `test-${randomUUID()}`;
    const a = makeSync({ id });
    const b = makeSync({ id, on: second.db });
    const outcomes = await Promise.all([a.sync.runOnce(), b.sync.runOnce()]);
    expect(outcomes.sort()).toEqual(["busy", "filled"]);
    // One instance's batch of pages at a time (the 4 pages of 400 invoices), never two instances' batches.
    expect(provider.maxInFlight()).toBe(4);
    expect(listCalls()).toHaveLength(5);
    // And once the walk is over, the next instance may take its turn.
    expect(await b.sync.runOnce()).toBe("synced");
  });

  it("a holder that lost its lease (it expired and another took over) stops writing progress", async () => {
    seed(300);
    const id = `test-${randomUUID()}`;
    const a = makeSync({ id });
    const b = makeSync({ id, on: second.db });
    let stolen = false;
    provider.state.beforePage = (page) => {
      if (page === 2 && !stolen) {
        stolen = true;
        // The lease is over (a long stall); b takes it.
        a.clock.now += 60_000;
        b.clock.now += 60_000;
      }
    };
    const [outcomeA, outcomeB] = await Promise.all([a.sync.runOnce(), new Promise((r) => setTimeout(r, 50)).then(() => b.sync.runOnce())]);
    expect([outcomeA, outcomeB]).toContain("filled");
    expect((await a.sync.state(true)).indexed).toBe(300);
  });
});

describe("stopping (graceful shutdown)", () => {
  it("lets the walk under way finish, then lets go of the lease and runs no more turns", async () => {
    seed(250);
    provider.state.delayMs = 150;
    const id = `test-${randomUUID()}`;
    const { sync } = makeSync({ id });
    sync.start();
    // A turn is under way once the lease is held.
    const holder = async () => {
      const result = (await db.execute(sql`select lease_holder from console.search_sync where id = ${id}`)) as unknown as {
        rows: { lease_holder: string | null }[];
      };
      return result.rows[0]?.lease_holder ?? null;
    };
    await expect.poll(holder, { timeout: 10_000, interval: 10 }).toBe(sync.holder);

    await sync.stop();
    expect(await holder()).toBeNull();
    const calls = listCalls().length;
    expect(calls).toBeGreaterThan(0);
    // No turn after stop(): the provider hears nothing more.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(listCalls().length).toBe(calls);
  });
});
