import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "@/lib/console/audit";
import { type Db, openDatabase } from "@/lib/platform/db";
import { NO_POSTGRES_HINT, postgresAvailable, startTestPostgres, type TestPostgres } from "@/test/postgres";
import { verifyChain } from "./chain";

/*
 * The chain on PostgreSQL, written by two console instances at once (two connection pools on one server, as
 * lib/console/auth/last-admin.test.ts): every entry gets the next number and links to the one before, so the
 * chain is one and unbroken; and the database itself refuses to rewrite an entry, whoever asks.
 */

const available = postgresAvailable();
if (!available) console.warn(`lib/console/activity/chain-postgres.test.ts is skipped. ${NO_POSTGRES_HINT}`);

describe.skipIf(!available)("the audit chain on PostgreSQL with two instances", () => {
  let postgres: TestPostgres | null = null;
  let a: { db: Db; close: () => Promise<void> };
  let b: { db: Db; close: () => Promise<void> };
  beforeAll(async () => {
    postgres = await startTestPostgres();
    if (!postgres) throw new Error(NO_POSTGRES_HINT);
    a = await openDatabase(postgres.url);
    b = await openDatabase(postgres.url);
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await postgres?.stop();
  }, 60_000);

  const write = (db: Db, who: string, i: number) =>
    recordAudit(db, { actor: "system", action: "invoice.status_change", target: `invoice:${who}-${i}`, detail: { reason: who } });

  it("entries written at once by two instances, some inside longer transactions, keep one unbroken chain", async () => {
    const PER_INSTANCE = 150;
    await Promise.all(
      [a.db, b.db].flatMap((db, n) =>
        Array.from({ length: PER_INSTANCE / 3 }, (_, i) =>
          // Plain writes, and transactions of two that hold the chain's lock until they commit.
          i % 2
            ? Promise.all([write(db, `i${n}`, 3 * i), write(db, `i${n}`, 3 * i + 1), write(db, `i${n}`, 3 * i + 2)])
            : db.transaction(async (tx) => {
                await write(tx, `i${n}`, 3 * i);
                await write(tx, `i${n}`, 3 * i + 1);
                await write(tx, `i${n}`, 3 * i + 2);
              }),
        ),
      ),
    );
    const result = (await a.db.execute(sql`select count(*)::int as n, max(seq)::int as top from console.audit_log`)) as unknown as {
      rows: { n: number; top: number }[];
    };
    // The chain's start entry, then everything both wrote.
    expect(result.rows[0]).toEqual({ n: 2 * PER_INSTANCE + 1, top: 2 * PER_INSTANCE + 1 });
    expect(await verifyChain(b.db)).toMatchObject({
      verified: 2 * PER_INSTANCE + 1,
      first_broken: null,
      head: { seq: 2 * PER_INSTANCE + 1 },
    });
  }, 60_000);

  it("refuses to change or remove an entry, and a change made with the trigger off is found", async () => {
    await expect(a.db.execute(sql`update console.audit_log set actor_email = 'someone-else' where seq = 2`)).rejects.toMatchObject({
      cause: expect.objectContaining({ message: "console.audit_log is append-only: UPDATE refused" }),
    });
    await expect(a.db.execute(sql`delete from console.audit_log where seq = 2`)).rejects.toMatchObject({
      cause: expect.objectContaining({ message: "console.audit_log is append-only: DELETE refused" }),
    });
    await a.db.transaction(async (tx) => {
      await tx.execute(sql`alter table console.audit_log disable trigger audit_log_append_only`);
      await tx.execute(sql`update console.audit_log set actor_email = 'someone-else' where seq = 42`);
      await tx.execute(sql`alter table console.audit_log enable trigger audit_log_append_only`);
    });
    expect(await verifyChain(b.db)).toMatchObject({ verified: 41, first_broken: { seq: 42 } });
  }, 60_000);
});
