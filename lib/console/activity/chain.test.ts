import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordAudit } from "@/lib/console/audit";
import { getDatabase } from "@/lib/platform/db";
import { verifyChain } from "./chain";
import { pruneActivity } from "./retention";

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
/** drizzle's error wraps the database's, which says what was refused. */
const refused = (op: string) => ({ cause: expect.objectContaining({ message: `console.audit_log is append-only: ${op} refused` }) });

async function write(n: number, tag: string) {
  const db = await getDatabase();
  for (let i = 0; i < n; i++) {
    await recordAudit(db, {
      actor: "system",
      action: "invoice.status_change",
      target: `invoice:${tag}-${i}`,
      detail: { reason: `test ${i}`, n: 1.5 },
    });
  }
}

async function lastSeq(): Promise<number> {
  const db = await getDatabase();
  return Number(rows<{ seq: string }>(await db.execute(sql`select max(seq) as seq from console.audit_log`))[0].seq);
}

/** As an attacker with the database would: the refusing trigger off for one statement, then on again. */
async function tamper(statement: ReturnType<typeof sql>) {
  const db = await getDatabase();
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table console.audit_log disable trigger audit_log_append_only`);
    await tx.execute(statement);
    await tx.execute(sql`alter table console.audit_log enable trigger audit_log_append_only`);
  });
}

describe("the audit log's hash chain", () => {
  it("numbers every entry after the last and links it to the one before; the chain verifies", async () => {
    await write(5, "a");
    const db = await getDatabase();
    const chain = rows<{ seq: string; prev_hash: string; hash: string }>(
      await db.execute(sql`select seq, prev_hash, hash from console.audit_log order by seq`),
    );
    expect(chain[0]).toMatchObject({ prev_hash: "0".repeat(64) });
    for (let i = 1; i < chain.length; i++) {
      expect(Number(chain[i].seq)).toBe(Number(chain[i - 1].seq) + 1);
      expect(chain[i].prev_hash).toBe(chain[i - 1].hash);
      expect(chain[i].hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const result = await verifyChain(db);
    expect(result).toEqual({
      verified: chain.length,
      first_broken: null,
      head: { seq: Number(chain.at(-1)!.seq), hash: chain.at(-1)!.hash },
    });
  });

  it("starts with the entry that records where it started", async () => {
    const db = await getDatabase();
    const [first] = rows<{ action: string; detail: { carried: number } }>(
      await db.execute(sql`select action, detail from console.audit_log order by seq limit 1`),
    );
    expect(first).toEqual({ action: "audit.chain_started", detail: { carried: 0 } });
  });

  it("refuses UPDATE, DELETE and TRUNCATE, so the console cannot rewrite history", async () => {
    await write(1, "b");
    const db = await getDatabase();
    const seq = await lastSeq();
    await expect(db.execute(sql`update console.audit_log set detail = '{}' where seq = ${seq}`)).rejects.toMatchObject(refused("UPDATE"));
    await expect(db.execute(sql`delete from console.audit_log where seq = ${seq}`)).rejects.toMatchObject(refused("DELETE"));
    await expect(db.execute(sql`truncate console.audit_log`)).rejects.toMatchObject(refused("TRUNCATE"));
    expect(await lastSeq()).toBe(seq);
  });

  it("checks in batches, carrying the chain from one batch to the next", async () => {
    await write(7, "c");
    const db = await getDatabase();
    const whole = await verifyChain(db);
    expect(await verifyChain(db, { batch: 3 })).toEqual(whole);
    expect(whole.first_broken).toBeNull();
  });

  it("names the first entry whose content was changed in the database", async () => {
    await write(4, "d");
    const db = await getDatabase();
    const seq = (await lastSeq()) - 2;
    await tamper(sql`update console.audit_log set detail = jsonb_set(detail, '{reason}', '"nothing happened"') where seq = ${seq}`);
    const [{ at }] = rows<{ at: string | Date }>(await db.execute(sql`select at from console.audit_log where seq = ${seq}`));
    for (const batch of [50_000, 2]) {
      const result = await verifyChain(db, { batch });
      expect(result.first_broken).toEqual({ seq, at: new Date(at).toISOString() });
      expect(result.verified).toBe(seq - 1);
      expect(result.head).toBeNull();
    }
    // Put back as it was: the chain verifies again (the hash is of the content, nothing else).
    await tamper(sql`update console.audit_log set detail = jsonb_set(detail, '{reason}', '"test 1"') where seq = ${seq}`);
    expect((await verifyChain(db)).first_broken).toBeNull();
  });

  it("names the entry after one removed from the middle, and one whose hash was recomputed alone", async () => {
    await write(4, "e");
    const db = await getDatabase();
    const seq = (await lastSeq()) - 1;
    await tamper(sql`delete from console.audit_log where seq = ${seq - 1}`);
    expect((await verifyChain(db)).first_broken?.seq).toBe(seq);
    expect((await verifyChain(db, { batch: 1 })).first_broken?.seq).toBe(seq);
  });
});

describe("retention", () => {
  it("removes the oldest entries through one function, records a checkpoint, and the rest still verifies", async () => {
    const { closeDatabase } = await import("@/lib/platform/db");
    await closeDatabase(); // A fresh, unbroken chain (the tests above broke theirs on purpose).
    const db = await getDatabase();
    await write(3, "old");
    const before = await lastSeq();
    // Everything so far is older than a cutoff a day ahead.
    expect(await pruneActivity(db, 1, Date.now() + 2 * 86_400_000)).toBe(before);
    const [checkpoint] = rows<{ seq: string; removed: string }>(
      await db.execute(sql`select seq, removed from console.audit_checkpoints order by seq desc limit 1`),
    );
    expect({ seq: Number(checkpoint.seq), removed: Number(checkpoint.removed) }).toEqual({ seq: before, removed: before });
    await write(2, "new");
    const result = await verifyChain(db);
    // The retention entry and the two new ones.
    expect(result).toMatchObject({ verified: 3, first_broken: null, head: { seq: before + 3 } });
    const [kept] = rows<{ action: string; detail: { removed: number } }>(
      await db.execute(sql`select action, detail from console.audit_log order by seq limit 1`),
    );
    expect(kept).toMatchObject({ action: "audit.retention", detail: { removed: before, retention_days: 1 } });
  });

  it("keeps everything when no retention is set", async () => {
    const db = await getDatabase();
    const before = await lastSeq();
    expect(await pruneActivity(db, undefined)).toBe(0);
    expect(await lastSeq()).toBe(before);
  });
});
