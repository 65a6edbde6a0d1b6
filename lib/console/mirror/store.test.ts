import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Invoice } from "@/lib/contract";
import { type Db, getDatabase } from "@/lib/platform/db";
import { indexInvoices, recentWordMatches, recordedOrderIds, searchIndex } from "./store";
import { wordsQuery } from "./text-match";

/* The ranking and matching of the search index on the real database (PGlite, or PostgreSQL with DATABASE_URL). */
let db: Db;

const invoice = (fields: Partial<Invoice> & { invoice_id: string }): Invoice => ({
  order_id: null,
  order_name: null,
  status: "new",
  fiat_amount: "10",
  fiat_currency: "EUR",
  crypto_amount: "0.1",
  currency: "BTC",
  allowed_error_percent: null,
  callback_url: null,
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-01T00:00:00.000Z",
  expires_at: null,
  priced_in: null,
  payment: null,
  provider_fields: [],
  ...fields,
});

beforeAll(async () => {
  db = await getDatabase();
  await db.execute(sql`delete from console.search_invoices`);
  await indexInvoices(db, [
    invoice({ invoice_id: "invoice_0190a1d2-aaaa-7000-8000-000000000001", order_id: "ORD-2611-002399", order_name: "Walnut desk" }),
    invoice({ invoice_id: "invoice_0190a1d2-aaaa-7000-8000-000000000002", order_id: "ORD-2611-0023990", order_name: "Oak chair" }),
    invoice({
      invoice_id: "invoice_0190a1d2-aaaa-7000-8000-000000000003",
      order_id: "ORD-2611-002398",
      order_name: "Desk lamp, ORD-2611-002399 replacement",
    }),
    invoice({ invoice_id: "48213", order_id: "SO-1001", order_name: "Blue moon lamp", updated_at: "2026-11-02T00:00:00.000Z" }),
    invoice({ invoice_id: "inv_8Hq2x", order_id: "SO-1002", order_name: "Moonlight lamp shade" }),
    invoice({ invoice_id: "a/b c%", order_id: "SO_100%", order_name: "Ünïcode Größe" }),
  ]);
});

const ids = async (q: string) => (await searchIndex(db, q)).map((r) => [r.order_id, r.match]);

describe("search ranking", () => {
  it("puts the exact order id first, then order ids it begins, then names holding the words", async () => {
    expect(await ids("ORD-2611-002399")).toEqual([
      ["ORD-2611-002399", "order_id"],
      ["ORD-2611-0023990", "order_id_prefix"],
      ["ORD-2611-002398", "words"],
    ]);
  });

  it("finds order ids by prefix, case-insensitively, the highest (the newest, where they count up) first", async () => {
    expect((await ids("ord-2611-00239")).slice(0, 3)).toEqual([
      ["ORD-2611-0023990", "order_id_prefix"],
      ["ORD-2611-002399", "order_id_prefix"],
      ["ORD-2611-002398", "order_id_prefix"],
    ]);
  });

  it("finds a part of an order id after a dash (the id's own words)", async () => {
    expect((await ids("002399")).map(([o]) => o)).toContain("ORD-2611-002399");
  });

  it("finds words of the order name, each a prefix, in any order", async () => {
    expect(await ids("lamp moo")).toEqual([
      ["SO-1001", "words"],
      ["SO-1002", "words"],
    ]);
    expect(await ids("größe")).toEqual([["SO_100%", "words"]]);
  });

  it("finds an invoice id in any form the provider uses, and a bare UUID by the id's tail", async () => {
    expect(await ids("48213")).toEqual([["SO-1001", "invoice_id"]]);
    expect(await ids("INV_8hq2X")).toEqual([["SO-1002", "invoice_id"]]);
    expect(await ids("a/b c%")).toEqual([["SO_100%", "invoice_id"]]);
    expect(await ids("0190a1d2-aaaa-7000-8000-000000000002")).toEqual([["ORD-2611-0023990", "invoice_id"]]);
    // The short id a table shows, copied with its ellipsis.
    expect(await ids("…00000002")).toEqual([["ORD-2611-0023990", "invoice_id"]]);
    expect(await ids("...00000002")).toEqual([["ORD-2611-0023990", "invoice_id"]]);
  });

  it("treats LIKE wildcards and tsquery operators as text", async () => {
    // "SO_" begins one order id; the other SO- orders follow only as a word ("so").
    expect(await ids("SO_")).toEqual([
      ["SO_100%", "order_id_prefix"],
      ["SO-1001", "words"],
      ["SO-1002", "words"],
    ]);
    expect(await ids("%")).toEqual([]);
    expect(await ids("!&|:*()")).toEqual([]);
    expect(wordsQuery("a&b | c")).toBe("a & b & c");
    expect(wordsQuery("ORD-26")).toBe("ord & 26:*");
    expect(wordsQuery("ORD-")).toBe("ord");
    for (const odd of ["x²", "١٢٣", "😀", "a:b", "'", "\\", "ǅemal", "ß".repeat(200), "--", "e.g. 1.5"]) {
      await expect(searchIndex(db, odd), odd).resolves.toBeInstanceOf(Array);
    }
  });

  it("keeps the newer of two summaries: an old sync page does not undo a change made through the console", async () => {
    await indexInvoices(db, [
      invoice({ invoice_id: "inv_8Hq2x", order_id: "SO-1002", status: "cancelled", updated_at: "2026-11-05T00:00:00.000Z" }),
    ]);
    await indexInvoices(db, [
      invoice({ invoice_id: "inv_8Hq2x", order_id: "SO-1002", status: "new", updated_at: "2026-11-01T00:00:00.000Z" }),
    ]);
    expect((await searchIndex(db, "SO-1002"))[0].status).toBe("cancelled");
  });

  it("keeps a page whose texts hold a lone surrogate, U+0000 or quotes and backslashes, and every digit of its amounts", async () => {
    await indexInvoices(db, [
      invoice({
        invoice_id: "inv_odd",
        order_id: 'SO-"9\\',
        order_name: "Lamp \ud800 shade\u0000",
        fiat_amount: "12345678901234567890.123456789",
      }),
    ]);
    const [found] = await searchIndex(db, "inv_odd");
    expect(found).toMatchObject({
      order_id: 'SO-"9\\',
      order_name: "Lamp \ufffd shade\ufffd",
      fiat_amount: "12345678901234567890.123456789",
    });
  });
});

describe("words shared by many invoices", () => {
  // More recent changes than the words arm reads first (5,000), so that both of its ways are taken.
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20) + minute * 60_000).toISOString();
  const many = Array.from({ length: 5_200 }, (_, i) =>
    invoice({
      invoice_id: `inv_many_${i}`,
      order_name: `Zephyr kite ${i % 7 === 0 ? "alder" : ""} ${i % 1000 === 999 ? "wombat" : ""}`,
      updated_at: at(1_000 + i),
    }),
  );
  // Older than every one of them: outside the most recent 5,000.
  const older = Array.from({ length: 12 }, (_, i) =>
    invoice({ invoice_id: `inv_older_${i}`, order_name: i < 3 ? "Quokka alder" : i >= 8 ? "Quokka wombat" : "Quokka", updated_at: at(i) }),
  );
  beforeAll(async () => {
    for (let i = 0; i < many.length; i += 800) await indexInvoices(db, many.slice(i, i + 800));
    await indexInvoices(db, older);
  });
  afterAll(() => db.execute(sql`delete from console.search_invoices where invoice_id like 'inv_many_%' or invoice_id like 'inv_older_%'`));

  const newest = (invoices: Invoice[]) =>
    [...invoices]
      .sort((a, b) => b.updated_at!.localeCompare(a.updated_at!) || (a.invoice_id < b.invoice_id ? -1 : 1))
      .slice(0, 10)
      .map((i) => i.invoice_id);
  const found = async (q: string) => (await searchIndex(db, q)).map((r) => r.invoice_id);

  it("answers the newest matches, whether the latest changes hold a page of them or not", async () => {
    expect(await found("zephyr")).toEqual(newest(many));
    expect(await found("alder")).toEqual(newest([...many, ...older].filter((i) => i.order_name!.includes("alder"))));
    // Every match older than the latest changes.
    expect(await found("quokk")).toEqual(newest(older));
    expect(await found("quokka alder")).toEqual(newest(older.slice(0, 3)));
    // Fewer than a page among the latest changes: the older ones follow them.
    expect(await found("wombat")).toEqual(newest([...many, ...older].filter((i) => i.order_name!.includes("wombat"))));
    expect(await found("wombat")).toHaveLength(9);
  });

  it("reads every match only when the latest changes hold less than a page of them", async () => {
    const every = sql`every match`;
    expect(await recentWordMatches(db, "zephyr", every)).not.toBe(every);
    expect(await recentWordMatches(db, "alder", every)).not.toBe(every);
    expect(await recentWordMatches(db, "wombat", every)).toBe(every);
    expect(await recentWordMatches(db, "quokk", every)).toBe(every);
  });
});

describe("recorded order ids (an import's preview)", () => {
  it("names the order ids an invoice has, exactly as written, and none other", async () => {
    const found = await recordedOrderIds(db, ["SO-1001", "so-1002", "SO_100%", "SO-1%", "LEGACY-NEW", "SO-1001"]);
    expect(found.sort()).toEqual(["SO-1001", "SO_100%"]);
    expect(await recordedOrderIds(db, [])).toEqual([]);
  });
});
