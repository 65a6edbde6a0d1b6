// `npx tsx --conditions=react-server scripts/bench/bench-seed.ts [invoices] [runs]`: how long seeding takes — the demo
// merchant's invoices (default 100,000) in a fresh in-memory PGlite, or on PostgreSQL with DATABASE_URL (a fresh
// database each run is up to you: the demo merchant is seeded once). Figures are printed, never asserted.
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/platform/db";
import { ensureSeeded } from "@/lib/sandbox/seed";

const invoices = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 3);
for (let run = 1; run <= runs; run++) {
  const { db, close } = await openDatabase(process.env.DATABASE_URL ?? "memory://");
  try {
    const started = performance.now();
    const seeded = await ensureSeeded(db, invoices);
    const ms = performance.now() - started;
    const result = (await db.execute(sql`select count(*)::text as count from sandbox.invoices`)) as unknown as {
      rows: { count: string }[];
    };
    const count = result.rows[0].count;
    console.log(`run ${run}: ${seeded ? "seeded" : "already seeded"} ${count} invoices in ${(ms / 1000).toFixed(2)} s`);
  } finally {
    await close();
  }
}
