import "server-only";
import { pruneActivity } from "@/lib/console/activity/retention";
import { signedSessionCheck } from "@/lib/console/auth/session-read";
import { ensureStartupUsers } from "@/lib/console/auth/users";
import { resumeBulkJobs } from "@/lib/console/invoices/bulk-runner";
import { searchSync } from "@/lib/console/mirror";
import { resumeRedeliverJobs } from "@/lib/console/webhooks/bulk-redeliver";
import { closeDatabase, getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { log } from "@/lib/platform/observability/log";
import { onShutdown, onSignedInCheck } from "@/lib/platform/server-lifecycle";
import { getSandboxDb, wakeWebhooks } from "@/lib/sandbox";
import { stopWebhookDispatcher } from "@/lib/sandbox/webhooks";

/** How often an instance looks for jobs whose holder stopped: their lease (a minute) has run out by then. */
const JOB_SWEEP_MS = 60_000;
let jobSweep: NodeJS.Timeout | undefined;

export async function startup(): Promise<void> {
  const e = env();
  const started = Date.now();
  onShutdown(shutdown);
  const db = await getDatabase();
  if (e.embeddedSandbox) await getSandboxDb();
  // Webhooks queued before a restart go out now.
  if (e.sandboxEnabled) wakeWebhooks();
  await ensureStartupUsers(db, { embeddedSandbox: e.embeddedSandbox, initialAdmin: e.initialAdmin });
  onSignedInCheck(await signedSessionCheck());
  // The search index fills and syncs in the background; the embedded sandbox answers once the server listens.
  if (e.search.syncSeconds > 0) searchSync().start(e.embeddedSandbox ? 2_000 : 0);
  // Bulk cancels and resend jobs an earlier run left unfinished go on, once the embedded sandbox answers too; then,
  // every minute, those whose instance stopped since (their lease ran out). Looking at a job (GET) changes nothing.
  const resumeLeftJobs = () => {
    resumeBulkJobs().catch((error) => log.error({ err: error }, "bulk jobs: could not resume"));
    resumeRedeliverJobs().catch((error) => log.error({ err: error }, "resend jobs: could not resume"));
  };
  setTimeout(resumeLeftJobs, e.embeddedSandbox ? 2_000 : 0).unref();
  jobSweep = setInterval(resumeLeftJobs, JOB_SWEEP_MS).unref();
  // Activity older than AUDIT_RETENTION_DAYS goes now and once a day (several instances: one at a time, by its lock).
  if (e.auditRetentionDays) {
    const prune = () =>
      pruneActivity(db, e.auditRetentionDays)
        .then((removed) => removed && log.info(`activity: ${removed} entries older than ${e.auditRetentionDays} days removed`))
        .catch((error: unknown) => log.error({ err: error }, "activity: retention failed"));
    void prune();
    setInterval(prune, 86_400_000).unref();
  }
  if (!e.embeddedSandbox && !e.publicUrl.startsWith("https://") && process.env.NODE_ENV === "production") {
    log.warn("PUBLIC_URL is not an https:// URL: session cookies are not marked Secure. Set PUBLIC_URL to the console's https address.");
  }
  const where = e.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${e.dataDir}`;
  log.info(`Database ready in ${Date.now() - started} ms: ${where}. Invoicing API: ${e.invoicingApiUrl}`);
}

/**
 * SIGTERM (scripts/server/server.mjs): the webhook dispatcher claims nothing more and hands back what it claimed but
 * did not finish, so another instance sends it at once; once the last request is answered, the database
 * closes (PGlite writes its checkpoint, so its folder never needs recovery on the next start).
 */
async function shutdown(drained: Promise<void>, graceMs: number): Promise<Record<string, string | number>> {
  // A stopping instance takes over no job: it would close its database under it.
  clearInterval(jobSweep);
  // A walk under way finishes (its calls to the embedded sandbox are still served), then the lease is let go.
  const searchStopped =
    env().search.syncSeconds > 0
      ? searchSync()
          .stop()
          .catch((error: unknown) => log.error({ err: error }, "search sync: stopping failed"))
      : undefined;
  const released = await stopWebhookDispatcher(graceMs).catch(
    (error: unknown) => `not handed back (${error instanceof Error ? error.message : error})`,
  );
  await searchStopped;
  await drained;
  const database = await closeDatabase().then(
    () => "closed",
    (error: unknown) => `close failed: ${error instanceof Error ? error.message : error}`,
  );
  return { webhook_deliveries_released: released, database };
}
