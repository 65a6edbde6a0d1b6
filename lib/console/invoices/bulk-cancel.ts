import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { type AskPermit, mayStillAsk } from "@/lib/console/approvals/may-still-ask";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { heartbeat } from "@/lib/console/leased-job";
import { indexedOrderIds } from "@/lib/console/mirror/store";
import { approvalRequests, bulkJobItems, bulkJobs } from "@/lib/console/schema";
import type { Upstream } from "@/lib/console/upstream/client";
import { type Invoice, PAGE_SIZE_MAX } from "@/lib/contract";
import type { BulkJob, BulkOutcome } from "@/lib/contract/bulk";
import { isDotSegment } from "@/lib/contract/invoice-href";
import type { InvoiceViewList, InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { Problem, toProblem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";
import { requestStatusChange } from "./change-status";

/*
 * Bulk cancel: one reason for many invoices, run on the server as one job. The job and its items are
 * rows (console.bulk_jobs, console.bulk_job_items), so it survives the browser closing and the instance
 * restarting: whoever holds the job's lease works through the items without an outcome, a few at a time, each
 * through the same use case as a single cancel (its audit entry, with the shared reason and the job's id, and
 * the mirror updated at once). Each item ends cancelled, refused (the provider said no, and why) or failed (no
 * answer, a 5xx: "try again" puts those back); duplicate when another of its ids named the same invoice; not_run
 * when the job stopped because its person may no longer make the change.
 */

/** The most invoices one job takes: a view beyond this is narrowed first. */
export const BULK_MAX = 1000;
/** How many changes run at once against the provider. */
export const BULK_CONCURRENCY = 4;
const LEASE_MS = 60_000;
/** A 429 with a Retry-After up to this many seconds is waited out, up to RATE_LIMIT_TRIES tries per invoice. */
const RATE_LIMIT_WAIT_MAX_S = 10;
const RATE_LIMIT_TRIES = 3;
/** Bulk cancels' rows among console.bulk_jobs (resending failed webhooks keeps its jobs there too). */
const CANCEL_KIND = "cancel";

export type BulkDeps = { db: Db; upstream: Upstream; holder?: string };

/** The invoices of a whole view, walked page by page (the view's own source: provider or mirror), at most BULK_MAX. */
export async function viewInvoices(listView: (view: InvoiceViewQuery) => Promise<InvoiceViewList>, view: InvoiceViewQuery) {
  const invoices = new Map<string, Invoice>();
  for (let page = 1; ; page++) {
    const list = await listView({ ...view, page, page_size: PAGE_SIZE_MAX });
    if (page === 1 && list.pagination.total_records > BULK_MAX) throw tooMany(list.pagination.total_records);
    for (const invoice of list.items) invoices.set(invoice.invoice_id, invoice);
    if (invoices.size > BULK_MAX) throw tooMany(invoices.size);
    if (!list.pagination.has_next || list.items.length === 0) return [...invoices.values()];
  }
}

/** The ids of a whole view's invoices (viewInvoices). */
export async function viewInvoiceIds(listView: (view: InvoiceViewQuery) => Promise<InvoiceViewList>, view: InvoiceViewQuery) {
  return (await viewInvoices(listView, view)).map((invoice) => invoice.invoice_id);
}

function tooMany(n: number): Problem {
  return Problem.of("validation_failed", {
    detail: `This selection holds ${n.toLocaleString("en")} invoices; one bulk cancel takes at most ${BULK_MAX.toLocaleString("en")}. Narrow the view (a status, a currency or dates) and cancel in parts.`,
  });
}

/** Records the job and its items in one transaction; the caller then runs it (`runBulkJob`). */
export async function createBulkCancel(
  db: Db,
  user: Pick<SessionUser, "id" | "email">,
  ids: string[],
  reason: string,
  /** The request it waits for, made with this id after it (nothing may start it meanwhile). */
  awaitingApproval: string | null = null,
): Promise<string> {
  const unique = [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
  if (unique.length === 0) throw Problem.of("validation_failed", { detail: "Select at least one invoice to cancel." });
  if (unique.length > BULK_MAX) throw tooMany(unique.length);
  const unsendable = unique.filter(isDotSegment);
  if (unsendable.length) {
    const one = unsendable.length === 1;
    throw Problem.of("validation_failed", {
      detail: `${unsendable.map((id) => JSON.stringify(id)).join(" and ")} cannot name an invoice: in a URL, "." and ".." are another path. Remove ${one ? "it" : "them"} from the selection.`,
    });
  }
  return db.transaction(async (tx) => {
    const [job] = await tx
      .insert(bulkJobs)
      .values({ kind: CANCEL_KIND, reason, createdBy: user.id, createdByEmail: user.email, awaitingApproval })
      .returning({ id: bulkJobs.id });
    for (let i = 0; i < unique.length; i += 500) {
      await tx.insert(bulkJobItems).values(unique.slice(i, i + 500).map((invoiceId, j) => ({ jobId: job.id, position: i + j, invoiceId })));
    }
    return job.id;
  });
}

/**
 * Works through the job's waiting items while this caller holds its lease; returns when none is left (the job
 * is then finished), when another instance holds the lease, or when the lease was lost. Safe to call again at
 * any time: that is how a job resumes after a restart.
 */
export async function runBulkJob(deps: BulkDeps, jobId: string): Promise<void> {
  const { db } = deps;
  const holder = deps.holder ?? randomUUID();
  const lease = () => new Date(Date.now() + LEASE_MS);
  const [job] = await db
    .update(bulkJobs)
    .set({ leaseUntil: lease(), leaseHolder: holder })
    .where(
      and(
        eq(bulkJobs.id, jobId),
        eq(bulkJobs.kind, CANCEL_KIND),
        isNull(bulkJobs.finishedAt),
        isNull(bulkJobs.awaitingApproval),
        or(isNull(bulkJobs.leaseUntil), lt(bulkJobs.leaseUntil, new Date())),
      ),
    )
    .returning();
  if (!job) return;
  const actor = { id: job.createdBy, email: job.createdByEmail };
  const held = and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseHolder, holder));
  const stopRenewing = heartbeat(() => db.update(bulkJobs).set({ leaseUntil: lease() }).where(held), LEASE_MS / 3, `bulk job ${jobId}`);
  try {
    for (;;) {
      const batch = await db
        .select()
        .from(bulkJobItems)
        .where(and(eq(bulkJobItems.jobId, jobId), isNull(bulkJobItems.outcome)))
        .orderBy(asc(bulkJobItems.position))
        .limit(BULK_CONCURRENCY);
      if (batch.length === 0) {
        await db
          .update(bulkJobs)
          .set({ finishedAt: new Date() })
          .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseHolder, holder)));
        return;
      }
      const permit = await mayGoOn(db, job);
      if (!permit.ok) {
        await stopJob(db, jobId, holder, permit.reason);
        return;
      }
      await Promise.all(
        batch.map(async (item) => {
          const result = await cancelOne(deps, { ...actor, role: permit.role }, job, item);
          await db
            .update(bulkJobItems)
            .set({ ...result, attempts: sql`${bulkJobItems.attempts} + 1`, updatedAt: new Date() })
            .where(and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.position, item.position)));
        }),
      );
      const [still] = await db
        .update(bulkJobs)
        .set({ leaseUntil: lease() })
        .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseHolder, holder)))
        .returning({ id: bulkJobs.id });
      if (!still) return;
    }
  } finally {
    stopRenewing();
    await db.update(bulkJobs).set({ leaseUntil: null, leaseHolder: null }).where(held);
  }
}

/**
 * Whether a job may go on: ok, with its person's role now (for checks of each change), or why not. A job acts in
 * its person's name only while they may: read before every batch, on whichever instance runs it (started, resumed
 * or taken over), so disabling someone, taking their role or deleting them stops their jobs within a batch instead
 * of letting them finish in that name.
 */
export function mayGoOn(db: Db, job: Pick<typeof bulkJobs.$inferSelect, "createdBy" | "createdByEmail">): Promise<AskPermit> {
  return mayStillAsk(db, { id: job.createdBy, email: job.createdByEmail }, "cancelled");
}

/** Finishes the job (while this caller still holds it), every item not done `not_run` with the reason. */
async function stopJob(db: Db, jobId: string, holder: string, reason: string): Promise<void> {
  const stopped = await db.transaction(async (tx) => {
    const [job] = await tx
      .update(bulkJobs)
      .set({ finishedAt: new Date() })
      .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseHolder, holder)))
      .returning({ id: bulkJobs.id });
    if (!job) return 0;
    const rows = await tx
      .update(bulkJobItems)
      .set({ outcome: "not_run" satisfies BulkOutcome, detail: `Not run — ${reason}`, updatedAt: new Date() })
      .where(and(eq(bulkJobItems.jobId, jobId), isNull(bulkJobItems.outcome)))
      .returning({ position: bulkJobItems.position });
    return rows.length;
  });
  if (stopped) log.warn(`bulk job ${jobId}: stopped, ${stopped} invoice(s) not run: ${reason}`);
}

/** Thrown by a repeat's claim: the invoice is another item's, under the id given there. */
class SameInvoice extends Error {
  constructor(readonly firstId: string) {
    super(`Same invoice as ${firstId}`);
  }
}

/**
 * Claims the invoice the provider named for this item, before its change is sent. The unique index on
 * (job_id, resolved_id) decides between two items of one invoice, in one batch or on two instances.
 */
async function claimInvoice(db: Db, jobId: string, position: number, resolvedId: string): Promise<void> {
  const mine = and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.position, position));
  try {
    await db.update(bulkJobItems).set({ resolvedId }).where(mine);
    return;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const [first] = await db
    .select({ invoiceId: bulkJobItems.invoiceId })
    .from(bulkJobItems)
    .where(and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.resolvedId, resolvedId)));
  throw new SameInvoice(first?.invoiceId ?? resolvedId);
}

/** PostgreSQL's unique_violation, wherever the driver wrapped it. */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

type ItemResult = { outcome: BulkOutcome; detail: string | null; fromStatus: string | null };

async function cancelOne(
  deps: BulkDeps,
  actor: Pick<SessionUser, "id" | "email" | "role">,
  job: typeof bulkJobs.$inferSelect,
  item: { position: number; invoiceId: string },
): Promise<ItemResult> {
  const { id: jobId, reason } = job;
  const beforeChange = (current: { invoice_id: string }) => claimInvoice(deps.db, jobId, item.position, current.invoice_id);
  for (let attempt = 1; ; attempt++) {
    try {
      // The policy decides each invoice as it would a single cancel, with the person's role now. A job approved as a
      // whole was approved for its size: its approver saw a count, so an invoice that needs approval of its own (it
      // received crypto) still waits for its own request, and one whose request is waiting is left to it.
      const answer = await requestStatusChange({
        ...deps,
        user: actor,
        id: item.invoiceId,
        status: "cancelled",
        reason,
        context: { bulk_job: jobId },
        beforeChange,
        // Its person read again for each invoice, just before its change: the batch's invoices run at once, and one
        // disabled or demoted meanwhile has nothing more sent in their name.
        mayStillAct: () => mayGoOn(deps.db, job),
      });
      if (answer.approval) {
        return {
          outcome: "awaiting_approval",
          detail: `Waiting for approval: ${answer.approval.why}`,
          fromStatus: answer.approval.from_status,
        };
      }
      const { from } = answer;
      return { outcome: "cancelled", detail: from === "cancelled" ? "It was already cancelled." : null, fromStatus: from ?? null };
    } catch (error) {
      if (error instanceof SameInvoice) {
        return { outcome: "duplicate", detail: `Same invoice as ${error.firstId} — done once.`, fromStatus: null };
      }
      const problem = toProblem(error);
      // The job stops before its next batch, for the same reason.
      if (problem.is("requester_changed")) return { outcome: "not_run", detail: `Not run — ${problem.detail}`, fromStatus: null };
      // Too many requests: wait as the provider asks (a little), then go on with the same invoice.
      const wait = Number(problem.headers["retry-after"] ?? Number.NaN);
      if (problem.status === 429 && attempt < RATE_LIMIT_TRIES && wait >= 0 && wait <= RATE_LIMIT_WAIT_MAX_S) {
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      return outcomeOf(problem);
    }
  }
}

function outcomeOf(problem: Problem): ItemResult {
  const sentence = problem.detail ? `${problem.title}. ${problem.detail}` : problem.title;
  // The provider answered and said no (a 4xx other than "too many"): trying again changes nothing. Another change
  // of the invoice still being sent is no answer: trying again may.
  const refused =
    problem.status >= 400 && problem.status < 500 && problem.status !== 408 && problem.status !== 429 && !problem.is("change_in_progress");
  return { outcome: refused ? "refused" : "failed", detail: sentence, fromStatus: null };
}

/** Where a bulk job's own entries are filed (its approval's too: lib/console/approvals/store.ts). */
export const bulkJobAuditTarget = (jobId: string) => `bulk_job:${jobId}`;

/** A bulk job's id as the database made it (a UUID): anything else names no job, and is not asked for. */
export const isBulkJobId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/**
 * Puts the job's failed items back to waiting (refused ones stay: the provider said no; not_run ones: their person
 * may not), recorded as `actor`'s: the changes that follow are made again in the job's person's name.
 */
export async function retryFailed(db: Db, jobId: string, actor: Pick<SessionUser, "id" | "email">): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(bulkJobItems)
      .set({ outcome: null, detail: null })
      .where(and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.outcome, "failed")))
      .returning({ position: bulkJobItems.position });
    if (rows.length) {
      await tx.update(bulkJobs).set({ finishedAt: null }).where(eq(bulkJobs.id, jobId));
      await recordAudit(tx, { actor, action: "bulk_cancel.retried", target: bulkJobAuditTarget(jobId), detail: { count: rows.length } });
    }
    return rows.length;
  });
}

/** A job as its page shows it, or null when there is none or `user` may not see it (neither its author nor an admin). */
export async function readBulkJob(db: Db, user: Pick<SessionUser, "id" | "role">, jobId: string): Promise<BulkJob | null> {
  if (!isBulkJobId(jobId)) return null;
  const [job] = await db.select().from(bulkJobs).where(eq(bulkJobs.id, jobId));
  if (!job || job.kind !== CANCEL_KIND || (job.createdBy !== user.id && user.role !== "admin")) return null;
  const items = await db.select().from(bulkJobItems).where(eq(bulkJobItems.jobId, jobId)).orderBy(asc(bulkJobItems.position));
  const counts = { cancelled: 0, refused: 0, failed: 0, duplicate: 0, not_run: 0, awaiting_approval: 0, waiting: 0 };
  const [approval] = job.awaitingApproval
    ? await db
        .select({ id: approvalRequests.id, why: approvalRequests.why })
        .from(approvalRequests)
        .where(eq(approvalRequests.id, job.awaitingApproval))
    : [];
  for (const item of items) counts[(item.outcome as BulkOutcome | null) ?? "waiting"]++;
  // Named by order id, as the list names them; an index that cannot answer leaves only the ids.
  const orderIds = await indexedOrderIds(
    db,
    items.map((i) => i.invoiceId),
  ).catch(() => new Map<string, string>());
  return {
    id: job.id,
    reason: job.reason,
    created_by: job.createdByEmail,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    total: items.length,
    approval: approval ?? null,
    counts,
    items: items.map((i) => ({
      invoice_id: i.invoiceId,
      outcome: i.outcome as BulkOutcome | null,
      detail: i.detail,
      from_status: i.fromStatus,
      order_id: orderIds.get(i.invoiceId) ?? null,
    })),
  };
}

/** The person's latest jobs (newest first), for "your bulk cancels". */
export async function listBulkJobs(db: Db, user: Pick<SessionUser, "id">, limit = 5) {
  const jobs = await db
    .select({
      id: bulkJobs.id,
      reason: bulkJobs.reason,
      createdAt: bulkJobs.createdAt,
      finishedAt: bulkJobs.finishedAt,
      total: count(bulkJobItems.position),
    })
    .from(bulkJobs)
    .leftJoin(bulkJobItems, eq(bulkJobItems.jobId, bulkJobs.id))
    .where(and(eq(bulkJobs.createdBy, user.id), eq(bulkJobs.kind, CANCEL_KIND)))
    .groupBy(bulkJobs.id)
    .orderBy(desc(bulkJobs.createdAt))
    .limit(limit);
  return jobs.map((j) => ({
    id: j.id,
    reason: j.reason,
    created_at: j.createdAt.toISOString(),
    finished_at: j.finishedAt?.toISOString() ?? null,
    total: j.total,
  }));
}

/** Jobs left unfinished (an instance stopped mid-way) whose lease has run out: what the sweep resumes (lib/console/startup.ts). */
export async function unfinishedJobIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: bulkJobs.id })
    .from(bulkJobs)
    .where(
      and(
        eq(bulkJobs.kind, CANCEL_KIND),
        isNull(bulkJobs.finishedAt),
        isNull(bulkJobs.awaitingApproval),
        or(isNull(bulkJobs.leaseUntil), lt(bulkJobs.leaseUntil, new Date())),
      ),
    );
  return rows.map((r) => r.id);
}
