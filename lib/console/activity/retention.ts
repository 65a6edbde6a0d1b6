import "server-only";
import { sql } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import type { Db } from "@/lib/platform/db";

/**
 * AUDIT_RETENTION_DAYS: entries older than that many days are removed, through the one database function that
 * may (console.audit_prune, drizzle/0021_audit_chain.sql). It removes the oldest entries as one run of the chain
 * and records a checkpoint, the last removed entry's number and hash, from which the rest still verifies. The
 * removal is itself an entry. Unset (the default): everything is kept.
 */
export async function pruneActivity(db: Db, retentionDays: number | undefined, now = Date.now()): Promise<number> {
  if (!retentionDays) return 0;
  const cutoff = new Date(now - retentionDays * 86_400_000);
  return db.transaction(async (tx) => {
    const result = (await tx.execute(sql`select console.audit_prune(${cutoff.toISOString()}::timestamptz) as removed`)) as unknown as {
      rows: { removed: string | number }[];
    };
    const removed = Number(result.rows[0].removed);
    if (removed > 0) {
      await recordAudit(tx, {
        actor: "system",
        action: "audit.retention",
        target: "audit:chain",
        detail: { removed, older_than: cutoff.toISOString(), retention_days: retentionDays },
      });
    }
    return removed;
  });
}
