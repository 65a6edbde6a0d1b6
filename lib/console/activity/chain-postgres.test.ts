import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { recordAudit } from "@/lib/console/audit";
import type { Db } from "@/lib/platform/db";
import { describeOnPostgres } from "@/test/use-postgres-database";
import { verifyChain } from "./chain";

/*
 * The chain on PostgreSQL, written by two console instances at once (two connection pools on one server, as
 * lib/console/auth/last-admin.test.ts): every entry gets the next number and links to the one before, so the
 * chain is one and unbroken; and the database itself refuses to rewrite an entry, whoever asks.
 */

describeOnPostgres(
  "the audit chain on PostgreSQL with two instances",
  (database) => {
    const write = (db: Db, who: string, i: number) =>
      recordAudit(db, { actor: "system", action: "invoice.status_change", target: `invoice:${who}-${i}`, detail: { reason: who } });

    it("entries written at once by two instances, some inside longer transactions, keep one unbroken chain", async () => {
      const PER_INSTANCE = 150;
      await Promise.all(
        [database.db(0), database.db(1)].flatMap((db, n) =>
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
      const result = (await database
        .db(0)
        .execute(sql`select count(*)::int as n, max(seq)::int as top from console.audit_log`)) as unknown as {
        rows: { n: number; top: number }[];
      };
      // The chain's start entry, then everything both wrote.
      expect(result.rows[0]).toEqual({ n: 2 * PER_INSTANCE + 1, top: 2 * PER_INSTANCE + 1 });
      expect(await verifyChain(database.db(1))).toMatchObject({
        verified: 2 * PER_INSTANCE + 1,
        first_broken: null,
        head: { seq: 2 * PER_INSTANCE + 1 },
      });
    }, 60_000);

    it("refuses to change or remove an entry, and a change made with the trigger off is found", async () => {
      await expect(
        database.db(0).execute(sql`update console.audit_log set actor_email = 'someone-else' where seq = 2`),
      ).rejects.toMatchObject({
        cause: expect.objectContaining({ message: "console.audit_log is append-only: UPDATE refused" }),
      });
      await expect(database.db(0).execute(sql`delete from console.audit_log where seq = 2`)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: "console.audit_log is append-only: DELETE refused" }),
      });
      await database.db(0).transaction(async (tx) => {
        await tx.execute(sql`alter table console.audit_log disable trigger audit_log_append_only`);
        await tx.execute(sql`update console.audit_log set actor_email = 'someone-else' where seq = 42`);
        await tx.execute(sql`alter table console.audit_log enable trigger audit_log_append_only`);
      });
      expect(await verifyChain(database.db(1))).toMatchObject({ verified: 41, first_broken: { seq: 42 } });
    }, 60_000);
  },
  { instances: 2 },
);
