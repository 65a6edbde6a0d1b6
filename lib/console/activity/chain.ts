import "server-only";
import { desc, sql } from "drizzle-orm";
import { auditCheckpoints } from "@/lib/console/schema";
import type { ChainVerification } from "@/lib/contract/activity";
import type { Db } from "@/lib/platform/db";

/*
 * The audit log's hash chain (drizzle/0021_audit_chain.sql): the database numbers every entry and stores
 * hash = SHA-256(previous hash, this entry's content) in a trigger, under one lock; `console.audit_entry_hash`
 * is the one definition of an entry's hash, for writing and for checking. Verifying walks the chain from its
 * last checkpoint (its start, or where retention last removed entries) in batches, in the database.
 */

const BATCH = 50_000;

type Batch = {
  n: number;
  first: { seq: number; prev_hash: string } | null;
  last: { seq: number; hash: string } | null;
  broken: { seq: number; at: string } | null;
};

/**
 * Checks every entry after the last checkpoint: its hash is its content's, its `prev_hash` is the previous
 * entry's hash, and its number follows the previous one (nothing removed from the middle). Answers how many
 * were checked, the first that does not match, and the newest entry's number and hash.
 */
export async function verifyChain(db: Db, { batch = BATCH }: { batch?: number } = {}): Promise<ChainVerification> {
  const [checkpoint] = await db.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq)).limit(1);
  let carried = checkpoint ? { seq: checkpoint.seq, hash: checkpoint.hash } : { seq: 0, hash: "0".repeat(64) };
  let verified = 0;
  for (;;) {
    const result = await checkBatch(db, carried.seq, batch);
    if (!result.n || !result.first || !result.last) return { verified, first_broken: null, head: verified ? carried : null };
    // Across batches: the first of this one must follow the last of the one before (or the checkpoint).
    if (result.first.seq !== carried.seq + 1 || result.first.prev_hash !== carried.hash) {
      return { verified, first_broken: await brokenAt(db, result.first.seq), head: null };
    }
    if (result.broken) return { verified: verified + (result.broken.seq - result.first.seq), first_broken: result.broken, head: null };
    verified += result.n;
    carried = result.last;
    if (result.n < batch) return { verified, first_broken: null, head: carried };
  }
}

async function checkBatch(db: Db, after: number, batch: number): Promise<Batch> {
  const result = (await db.execute(sql`
    with b as (
      select seq, at, hash, prev_hash,
        console.audit_entry_hash(prev_hash, seq, at, actor_id, actor_email, action, target, detail) as computed,
        lag(hash) over (order by seq) as before_hash,
        lag(seq) over (order by seq) as before_seq
      from (select * from console.audit_log where seq > ${after} order by seq limit ${batch}) as page
    )
    select
      (select count(*)::int from b) as n,
      (select json_build_object('seq', seq, 'prev_hash', prev_hash) from b order by seq limit 1) as first,
      (select json_build_object('seq', seq, 'hash', hash) from b order by seq desc limit 1) as last,
      (select json_build_object('seq', seq, 'at', at) from b
        where computed <> hash or (before_seq is not null and (prev_hash <> before_hash or seq <> before_seq + 1))
        order by seq limit 1) as broken`)) as unknown as { rows: Batch[] };
  const [row] = result.rows;
  return { ...row, broken: row.broken && { seq: Number(row.broken.seq), at: new Date(row.broken.at).toISOString() } };
}

async function brokenAt(db: Db, seq: number): Promise<{ seq: number; at: string }> {
  const result = (await db.execute(sql`select at from console.audit_log where seq = ${seq}`)) as unknown as {
    rows: { at: string | Date }[];
  };
  return { seq, at: new Date(result.rows[0].at).toISOString() };
}
