import "server-only";
import { sql } from "drizzle-orm";
import { getDatabase } from "@/lib/db";
import { env } from "@/lib/env";
import { toProblem } from "@/lib/problem";
import { upstream } from "@/lib/upstream/client";

type Check = { ok: true } | { ok: false; problem: string };

async function check(run: () => Promise<unknown>): Promise<Check> {
  try {
    await run();
    return { ok: true };
  } catch (error) {
    const p = toProblem(error);
    return { ok: false, problem: p.detail ?? p.title };
  }
}

/** GET /api/health: can the console reach its database and the invoicing API? Always 200; the body tells. */
export async function health() {
  const e = env();
  const [database, upstreamCheck] = await Promise.all([
    check(async () => (await getDatabase()).execute(sql`select 1`)),
    check(() => upstream().listCurrencies()),
  ]);
  const ok = database.ok && upstreamCheck.ok;
  return Response.json(
    {
      status: ok ? "ok" : "degraded",
      database: { ...database, driver: e.databaseUrl ? "postgresql" : "pglite" },
      upstream: { ...upstreamCheck, embedded_sandbox: e.embeddedSandbox },
    },
    { headers: { "cache-control": "no-store" } },
  );
}
