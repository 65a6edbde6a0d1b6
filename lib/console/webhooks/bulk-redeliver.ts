import "server-only";
import { randomUUID } from "node:crypto";
import { context, ROOT_CONTEXT } from "@opentelemetry/api";
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { bulkJobAuditTarget, isBulkJobId } from "@/lib/console/invoices/bulk-cancel";
import { heartbeat } from "@/lib/console/leased-job";
import { bulkJobItems, bulkJobs, users } from "@/lib/console/schema";
import { type Upstream, upstream } from "@/lib/console/upstream/client";
import { type DeliveryLogQuery, REDELIVER_JOB_MAX, type RedeliverJob, type RedeliverOutcome, type WebhookDelivery } from "@/lib/contract";
import { Problem, problemSentence, toProblem } from "@/lib/contract/problem";
import { can, isRole } from "@/lib/contract/roles";
import { type Db, getDatabase } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";
import { outsideRequest } from "@/lib/platform/server-lifecycle";
import { listDeliveryLog, redeliverFromConsole, redeliverySentence } from "./deliveries";

/*
 * "Resend all failed in this view": one job on the server, as a bulk cancel is (ARCHITECTURE.md §4). Its rows are
 * console.bulk_jobs (kind `redeliver`) and bulk_job_items (the delivery's id in `resolved_id`, unique per job, so
 * one delivery is resent once); whoever holds the lease resends the waiting ones a few at a time, each through the
 * single resend's use case (its own audit entry), and a job left by a stopped instance resumes at the next sweep
 * (lib/console/startup.ts).
 */

const KIND = "redeliver";
const CONCURRENCY = 4;
const LEASE_MS = 60_000;
export const BULK_REDELIVER_ACTION = "bulk_redeliver.started";

export type RedeliverDeps = { db: Db; upstream: Upstream; holder?: string };

/** The failed deliveries of a view, page by page, at most REDELIVER_JOB_MAX. */
async function failedDeliveries(provider: Upstream, query: DeliveryLogQuery): Promise<WebhookDelivery[]> {
  const found = new Map<string, WebhookDelivery>();
  for (let page = 1; ; page++) {
    const list = await listDeliveryLog(provider, { ...query, state: "failed", page, page_size: 100 });
    const total = Math.max(list.pagination.total_records, found.size + list.items.length);
    if (total > REDELIVER_JOB_MAX) {
      throw Problem.of("validation_failed", {
        title: "Too many deliveries at once",
        detail: `This view has ${total} failed deliveries; one job resends at most ${REDELIVER_JOB_MAX}. Narrow it by invoice or dates.`,
        errors: [{ pointer: "/state", code: "too_many", detail: `names more than ${REDELIVER_JOB_MAX} deliveries` }],
      });
    }
    for (const d of list.items) if (d.webhook_id) found.set(d.webhook_id, d);
    if (!list.pagination.has_next || list.items.length === 0) return [...found.values()];
  }
}

/** Starts resending every failed delivery of the view; answers the job's id. Audited once for the start. */
export async function startBulkRedeliver(
  deps: RedeliverDeps,
  user: Pick<SessionUser, "id" | "email">,
  query: DeliveryLogQuery,
): Promise<string> {
  const deliveries = await failedDeliveries(deps.upstream, query);
  if (deliveries.length === 0) {
    throw Problem.of("validation_failed", {
      title: "Nothing to resend",
      detail: "No delivery in this view has failed.",
      errors: [{ pointer: "/state", code: "none_failed", detail: "names no failed delivery" }],
    });
  }
  return deps.db.transaction(async (tx) => {
    const [job] = await tx
      .insert(bulkJobs)
      .values({ kind: KIND, reason: "Resend failed webhooks", createdBy: user.id, createdByEmail: user.email })
      .returning({ id: bulkJobs.id });
    await tx
      .insert(bulkJobItems)
      .values(deliveries.map((d, position) => ({ jobId: job.id, position, invoiceId: d.invoice_id ?? "", resolvedId: d.webhook_id })));
    // Each resend is recorded as the job reaches it; this is the person's decision to make them all.
    await recordAudit(tx, {
      actor: user,
      action: BULK_REDELIVER_ACTION,
      target: bulkJobAuditTarget(job.id),
      detail: { count: deliveries.length, view: query },
    });
    return job.id;
  });
}

/**
 * Works through a resend job's waiting deliveries while this caller holds its lease; does nothing when another
 * does. Before each batch its person is read again: one disabled, deleted or without webhooks:manage stops it.
 */
export async function runBulkRedeliver(deps: RedeliverDeps, jobId: string): Promise<void> {
  const { db } = deps;
  const holder = deps.holder ?? randomUUID();
  const lease = () => new Date(Date.now() + LEASE_MS);
  const [job] = await db
    .update(bulkJobs)
    .set({ leaseUntil: lease(), leaseHolder: holder })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.kind, KIND), isNull(bulkJobs.finishedAt), leaseFree()))
    .returning();
  if (!job) return;
  const held = and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseHolder, holder));
  const stopRenewing = heartbeat(() => db.update(bulkJobs).set({ leaseUntil: lease() }).where(held), LEASE_MS / 3, `resend job ${jobId}`);
  try {
    for (;;) {
      const batch = await db
        .select()
        .from(bulkJobItems)
        .where(and(eq(bulkJobItems.jobId, jobId), isNull(bulkJobItems.outcome)))
        .orderBy(asc(bulkJobItems.position))
        .limit(CONCURRENCY);
      if (batch.length === 0) {
        await db.update(bulkJobs).set({ finishedAt: new Date() }).where(held);
        return;
      }
      const stop = await whyNot(db, job);
      if (stop) {
        await db.transaction(async (tx) => {
          const [still] = await tx.update(bulkJobs).set({ finishedAt: new Date() }).where(held).returning({ id: bulkJobs.id });
          if (!still) return;
          await tx
            .update(bulkJobItems)
            .set({ outcome: "not_run" satisfies RedeliverOutcome, detail: `Not run — ${stop}`, updatedAt: new Date() })
            .where(and(eq(bulkJobItems.jobId, jobId), isNull(bulkJobItems.outcome)));
        });
        log.warn(`resend job ${jobId}: stopped: ${stop}`);
        return;
      }
      const actor = { id: job.createdBy, email: job.createdByEmail };
      await Promise.all(
        batch.map(async (item) => {
          const result = await resendOne(deps, actor, item.resolvedId ?? "", item.invoiceId);
          await db
            .update(bulkJobItems)
            .set({ ...result, attempts: sql`${bulkJobItems.attempts} + 1`, updatedAt: new Date() })
            .where(and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.position, item.position)));
        }),
      );
      const [still] = await db.update(bulkJobs).set({ leaseUntil: lease() }).where(held).returning({ id: bulkJobs.id });
      if (!still) return;
    }
  } finally {
    stopRenewing();
    await db.update(bulkJobs).set({ leaseUntil: null, leaseHolder: null }).where(held);
  }
}

const leaseFree = () => or(isNull(bulkJobs.leaseUntil), lt(bulkJobs.leaseUntil, new Date()));

/** Why the job's person may no longer resend, in a sentence; null while they may. */
async function whyNot(db: Db, job: typeof bulkJobs.$inferSelect): Promise<string | null> {
  const [person] = await db.select({ role: users.role, banned: users.banned }).from(users).where(eq(users.id, job.createdBy));
  const who = job.createdByEmail;
  if (!person) return `${who} no longer exists.`;
  if (person.banned) return `${who} was disabled.`;
  if (!isRole(person.role) || !can(person.role, "webhooks:manage")) return `${who}'s role (${person.role}) may no longer resend webhooks.`;
  return null;
}

async function resendOne(
  deps: RedeliverDeps,
  actor: Pick<SessionUser, "id" | "email">,
  webhookId: string,
  invoiceId: string,
): Promise<{ outcome: RedeliverOutcome; detail: string }> {
  try {
    const delivery = await redeliverFromConsole({
      db: deps.db,
      upstream: deps.upstream,
      user: actor,
      request: { webhook_id: webhookId, invoice_id: invoiceId || undefined },
    });
    const status = delivery.attempts.at(-1)?.response_status ?? null;
    const delivered = status !== null && status >= 200 && status <= 299;
    return { outcome: delivered ? "delivered" : "not_delivered", detail: redeliverySentence(delivery) };
  } catch (error) {
    return { outcome: "failed", detail: problemSentence(toProblem(error)) };
  }
}

/** A resend job as the deliveries view shows it, or null when there is none or `user` may not see it. */
export async function readRedeliverJob(db: Db, user: Pick<SessionUser, "id" | "role">, jobId: string): Promise<RedeliverJob | null> {
  if (!isBulkJobId(jobId)) return null;
  const [job] = await db
    .select()
    .from(bulkJobs)
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.kind, KIND)));
  if (!job || (job.createdBy !== user.id && user.role !== "admin")) return null;
  const items = await db.select().from(bulkJobItems).where(eq(bulkJobItems.jobId, jobId)).orderBy(asc(bulkJobItems.position));
  const counts = { delivered: 0, not_delivered: 0, failed: 0, not_run: 0, waiting: 0 };
  for (const item of items) counts[(item.outcome as RedeliverOutcome | null) ?? "waiting"]++;
  return {
    id: job.id,
    created_by: job.createdByEmail,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    total: items.length,
    counts,
    items: items.map((i) => ({
      webhook_id: i.resolvedId ?? "",
      invoice_id: i.invoiceId,
      outcome: i.outcome as RedeliverOutcome | null,
      detail: i.detail,
    })),
  };
}

/** Runs a resend job in the background of this process, outside the request that started it. */
export function runRedeliverInBackground(jobId: string): void {
  outsideRequest(() =>
    context.with(ROOT_CONTEXT, () => {
      void getDatabase()
        .then((db) => runBulkRedeliver({ db, upstream: upstream() }, jobId))
        .catch((error) => log.error({ err: error }, `resend job ${jobId}: stopped, resumed by the next sweep`));
    }),
  );
}

/** At start and every minute: the resend jobs left unfinished by an instance that stopped go on. */
export async function resumeRedeliverJobs(): Promise<void> {
  const db = await getDatabase();
  const rows = await db
    .select({ id: bulkJobs.id })
    .from(bulkJobs)
    .where(and(eq(bulkJobs.kind, KIND), isNull(bulkJobs.finishedAt), leaseFree()));
  for (const { id } of rows) runRedeliverInBackground(id);
}
