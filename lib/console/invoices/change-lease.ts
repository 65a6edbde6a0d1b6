import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { heartbeat } from "@/lib/console/leased-job";
import { invoiceChangeLeases } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";

/** Renewed while its change runs (a slow provider's retries may outlast it); a crashed holder's runs out after it. */
const LEASE_SECONDS = 60;
/** How long a change waits for another one of the same invoice to finish before it is refused. */
const WAIT_MS = 10_000;

/**
 * Runs `change` while no other change of the invoice runs, in this instance or another: what it reads of the
 * invoice, decides and sends is then about the invoice as it is, not as it was before someone else's change landed
 * (two approvals of one invoice, an approval beside a direct change). A row, not a lock held in a transaction: the
 * provider is called meanwhile, and on PGlite a transaction held across that call would hold the one connection
 * the embedded sandbox needs to answer it.
 */
export async function underInvoiceLease<T>(db: Db, invoiceId: string, change: () => Promise<T>, waitMs = WAIT_MS): Promise<T> {
  const holder = randomUUID();
  const key = createHash("sha256").update(invoiceId).digest("hex");
  const giveUpAt = Date.now() + waitMs;
  for (let pause = 20; !(await take(db, key, holder)); pause = Math.min(pause * 2, 250)) {
    if (Date.now() >= giveUpAt) {
      throw Problem.of("change_in_progress", {
        detail:
          "Someone else's change of this invoice is still being sent. Nothing was sent for yours: look at the invoice's status, then try again.",
      });
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  const mine = and(eq(invoiceChangeLeases.invoiceKey, key), eq(invoiceChangeLeases.holder, holder));
  const stopRenewing = heartbeat(
    () => db.update(invoiceChangeLeases).set({ until: leaseEnd() }).where(mine),
    (LEASE_SECONDS * 1000) / 3,
    "invoice change lease",
  );
  try {
    return await change();
  } finally {
    stopRenewing();
    await db.delete(invoiceChangeLeases).where(mine);
  }
}

const leaseEnd = () => sql`clock_timestamp() + ${`${LEASE_SECONDS} seconds`}::interval`;

/** Takes the lease when nobody holds it or its holder's time ran out: one statement, so two takers never both win. */
async function take(db: Db, invoiceKey: string, holder: string): Promise<boolean> {
  const until = leaseEnd();
  const taken = await db
    .insert(invoiceChangeLeases)
    .values({ invoiceKey, holder, until })
    .onConflictDoUpdate({
      target: invoiceChangeLeases.invoiceKey,
      set: { holder, until },
      setWhere: sql`${invoiceChangeLeases.until} < clock_timestamp()`,
    })
    .returning({ holder: invoiceChangeLeases.holder });
  return taken.length > 0;
}
