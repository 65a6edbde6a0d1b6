import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { invoiceChangeLeases } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { type Db, getDatabase } from "@/lib/platform/db";
import { underInvoiceLease } from "./change-lease";

let db: Db;
beforeAll(async () => {
  db = await getDatabase();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keyOf = (id: string) => createHash("sha256").update(id).digest("hex");

/** Runs `n` changes of `ids[i]` at once, each 40 ms long, and gives when each ran. */
async function spans(ids: string[]): Promise<{ start: number; end: number }[]> {
  return Promise.all(
    ids.map((id) =>
      underInvoiceLease(db, id, async () => {
        const start = performance.now();
        await pause(40);
        return { start, end: performance.now() };
      }),
    ),
  );
}

describe("one change of an invoice at a time", () => {
  it("changes of one invoice run one after another; of others, side by side", async () => {
    const same = (await spans(["inv_a", "inv_a", "inv_a"])).sort((x, y) => x.start - y.start);
    for (let i = 1; i < same.length; i++) expect(same[i].start).toBeGreaterThanOrEqual(same[i - 1].end);
    const apart = await spans(["inv_b", "inv_c"]);
    expect(Math.max(...apart.map((s) => s.start))).toBeLessThan(Math.min(...apart.map((s) => s.end)));
    // Each gave its lease back.
    expect(
      await db
        .select()
        .from(invoiceChangeLeases)
        .where(sql`${invoiceChangeLeases.invoiceKey} in (${keyOf("inv_a")}, ${keyOf("inv_b")})`),
    ).toEqual([]);
  });

  it("gives the lease back when the change fails", async () => {
    await expect(underInvoiceLease(db, "inv_d", async () => Promise.reject(new Error("provider down")))).rejects.toThrow("provider down");
    expect(await underInvoiceLease(db, "inv_d", async () => "next")).toBe("next");
  });

  it("takes over a lease whose holder's time ran out (a crashed instance)", async () => {
    await db.insert(invoiceChangeLeases).values({ invoiceKey: keyOf("inv_e"), holder: "crashed", until: new Date(Date.now() - 1_000) });
    expect(await underInvoiceLease(db, "inv_e", async () => "ran", 100)).toBe("ran");
  });

  it("refuses with change_in_progress when another change holds it past the wait, running nothing", async () => {
    await db.insert(invoiceChangeLeases).values({ invoiceKey: keyOf("inv_f"), holder: "busy", until: new Date(Date.now() + 60_000) });
    let ran = false;
    const refused = await underInvoiceLease(
      db,
      "inv_f",
      async () => {
        ran = true;
      },
      150,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Problem);
    expect((refused as Problem).code).toBe("change_in_progress");
    expect((refused as Problem).status).toBe(409);
    expect(ran).toBe(false);
  });

  it("keys any id, however long or odd", async () => {
    const odd = `inv/${"x".repeat(20_000)}\u0000'";`;
    expect(await underInvoiceLease(db, odd, async () => "ok")).toBe("ok");
  });
});
