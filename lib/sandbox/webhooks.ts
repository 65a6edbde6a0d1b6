import "server-only";
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { v7 as uuidv7 } from "uuid";
import { stringifyJson } from "@/lib/contract/money-json";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { log } from "@/lib/platform/observability/log";
import { counter, gaugeSource } from "@/lib/platform/observability/metrics";
import { merchants, webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";
import { CallbackError, type CallbackPolicy, postCallback } from "./callback";
import { resolveCallbackUrl, storedCallbackUrl } from "./callback-url";
import { parseInvoiceId } from "./ids";
import type { WireInvoice as Invoice } from "./wire";

/**
 * The sandbox's status-change webhooks (ARCHITECTURE.md §3): Standard Webhooks signatures, an outbox written with the
 * change itself, and retries on a schedule until the receiver answers 2xx. Every attempt is kept.
 */

const STATUS_CHANGED_EVENT = "invoice.status_changed";
/** The whole of one attempt, from connecting to the answer's status line. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** A claimed delivery is another dispatcher's again after this long (many attempts' worth), should its owner die. */
const CLAIM_LEASE = sql`now() + interval '2 minutes'`;
const BATCH = 10;
/** How often an idle dispatcher looks for work that another instance queued or a lease that ran out. */
const IDLE_POLL_MS = 30_000;
/** The shortest pause between passes, so work that is due but claimed elsewhere cannot make a busy loop. */
const MIN_PAUSE_MS = 100;
/** A time `ms` milliseconds from now, by the database's clock: every due date is compared with its `now()`. */
const dbNowPlus = (ms: number) => sql`now() + ${ms}::float8 * interval '1 millisecond'`;

export type WebhookConfig = { retrySchedule: number[]; policy: CallbackPolicy; timeoutMs: number };

export function webhookConfig(): WebhookConfig {
  const e = env();
  const ownOrigins = [new URL(e.publicUrl).origin, `http://127.0.0.1:${e.port}`, `http://localhost:${e.port}`];
  return {
    retrySchedule: e.webhooks.retrySchedule,
    policy: { ownOrigins, allowlist: e.webhooks.allowlist },
    timeoutMs: ATTEMPT_TIMEOUT_MS,
  };
}

export type StatusChange = { merchantId: string; invoice: Invoice; previousStatus: string; simulated: boolean };

/** Queues the webhook for a status change, in the caller's transaction. An invoice without a callback URL gets none. */
export async function enqueueStatusWebhook(tx: Db, change: StatusChange): Promise<string | null> {
  if (!change.invoice.callback_url) return null;
  const delivery = statusWebhook(change);
  await tx.insert(webhookDeliveries).values({ ...delivery, nextAttemptAt: dbNowPlus(0) });
  return delivery.id;
}

/**
 * The delivery of a status change's webhook, made now or at `at` (a seeded history): its id, its address and the
 * exact body to sign.
 */
export function statusWebhook(change: StatusChange, past?: Date) {
  const { invoice } = change;
  const at = past ?? new Date();
  return {
    // Now, from uuid's monotonic clock: two made in one millisecond keep their order.
    id: past ? uuidv7({ msecs: past.getTime() }) : uuidv7(),
    merchantId: change.merchantId,
    invoiceId: parseInvoiceId(invoice.invoice_id)!,
    url: storedCallbackUrl(invoice.callback_url!),
    // To the millisecond, as answered: GET /webhook-deliveries?created_after=X never returns the one created at X.
    createdAt: at,
    // Amounts with exactly the ledger's digits, as in the API's answers.
    payload: stringifyJson({
      type: STATUS_CHANGED_EVENT,
      timestamp: at.toISOString(),
      data: { invoice, previous_status: change.previousStatus, simulated: change.simulated },
    }),
  };
}

/**
 * Makes one attempt at every delivery that is due; returns how many were attempted. `claims`, when given,
 * holds each claimed delivery (id → its attempts so far) until its attempt is recorded, so that a stopping
 * dispatcher can hand back what it has not finished (`releaseClaims`).
 */
export async function deliverDueWebhooks(db: Db, config: WebhookConfig, claims?: Map<string, number>): Promise<number> {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.state, "pending"), lte(webhookDeliveries.nextAttemptAt, sql`now()`)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(BATCH)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: CLAIM_LEASE })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  for (const delivery of claimed) claims?.set(delivery.id, delivery.attempts);
  // Each attempt records its own outcome; one that cannot even do that is reported, and its lease runs out.
  const results = await Promise.allSettled(
    claimed.map((delivery) => attempt(db, delivery, config).finally(() => claims?.delete(delivery.id))),
  );
  for (const result of results)
    if (result.status === "rejected") log.error({ err: result.reason }, "Sandbox webhooks: could not record an attempt");
  return claimed.length;
}

/** What one attempt came to: the receiver's answer or why there was none, and what happens next. */
export type AttemptOutcome = {
  url: string;
  attempt: number;
  state: "delivered" | "pending" | "failed";
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** Milliseconds until the next try, when there is one. */
  retryInMs: number | null;
};

async function attempt(db: Db, delivery: typeof webhookDeliveries.$inferSelect, config: WebhookConfig): Promise<AttemptOutcome> {
  const number = delivery.attempts + 1;
  const at = new Date();
  let responseStatus: number | null = null;
  let responseBody: string | null = null;
  let error: string | null = null;
  let permanent = false;
  try {
    const headers = await signedHeaders(db, delivery, at);
    const answer = await postCallback(resolveCallbackUrl(delivery.url), delivery.payload, headers, {
      policy: config.policy,
      timeoutMs: config.timeoutMs,
    });
    responseStatus = answer.status;
    responseBody = storableText(answer.body);
    if (responseStatus < 200 || responseStatus > 299) error = `the receiver answered HTTP ${responseStatus}`;
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause);
    // Only a receiver can be worth trying again; a refused address or a broken secret stays what it is.
    permanent = !(cause instanceof CallbackError) || cause.permanent;
  }

  const retryIn = error && !permanent ? config.retrySchedule[number - 1] : undefined;
  const state = !error ? "delivered" : retryIn === undefined ? "failed" : "pending";
  counter(
    "invoice_console_webhook_attempts_total",
    "The sandbox's webhook delivery attempts by outcome: delivered, retry (no 2xx, tried again later), failed (no more tries).",
    ["outcome"],
  ).inc({ outcome: state === "pending" ? "retry" : state });
  await db.transaction(async (tx) => {
    // Only while the claim is still this dispatcher's: had its lease run out, another has taken over.
    const [stillOurs] = await tx
      .update(webhookDeliveries)
      .set({ attempts: number, state, nextAttemptAt: state === "pending" ? dbNowPlus(retryIn!) : null })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.state, "pending"),
          eq(webhookDeliveries.attempts, delivery.attempts),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (!stillOurs)
      log.warn(`Sandbox webhooks: attempt ${number} of msg_${delivery.id} outlived its claim; another dispatcher has taken over.`);
    // The attempt is kept either way, unless the new owner already recorded one under the same number.
    await tx
      .insert(webhookAttempts)
      .values({ deliveryId: delivery.id, attempt: number, at, responseStatus, responseBody, error, durationMs: Date.now() - at.getTime() })
      .onConflictDoNothing();
  });
  return {
    url: resolveCallbackUrl(delivery.url),
    attempt: number,
    state,
    responseStatus,
    responseBody,
    error,
    retryInMs: state === "pending" ? retryIn! : null,
  };
}

/**
 * Makes the first attempt at one delivery now and answers what it came to (the simulate endpoint waits for
 * it). The claim is the dispatcher's own, so two never send the same attempt; should a dispatcher have claimed
 * it first, its attempt is awaited from the log instead (bounded by the attempt's own deadline).
 */
export async function deliverNow(db: Db, deliveryId: string, config: WebhookConfig): Promise<AttemptOutcome> {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.state, "pending")))
    .for("update", { skipLocked: true });
  const [claimed] = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: CLAIM_LEASE })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  if (claimed && claimed.attempts === 0) return attempt(db, claimed, config);
  if (claimed)
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: dbNowPlus(0) })
      .where(eq(webhookDeliveries.id, deliveryId));

  const deadline = Date.now() + config.timeoutMs + 5_000;
  for (;;) {
    const [first] = await db
      .select()
      .from(webhookAttempts)
      .where(and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.attempt, 1)));
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    if (first) {
      const retryInMs = delivery.state === "pending" ? (config.retrySchedule[0] ?? null) : null;
      return {
        url: resolveCallbackUrl(delivery.url),
        attempt: 1,
        state: first.error ? (retryInMs === null ? "failed" : "pending") : "delivered",
        responseStatus: first.responseStatus,
        responseBody: first.responseBody,
        error: first.error,
        retryInMs,
      };
    }
    if (Date.now() > deadline) {
      return {
        url: resolveCallbackUrl(delivery.url),
        attempt: 1,
        state: "pending",
        responseStatus: null,
        responseBody: null,
        error: "the attempt is still under way",
        retryInMs: null,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** PostgreSQL text cannot hold NUL; a receiver's odd bytes must not lose the attempt. */
export const storableText = (text: string) => text.replace(/\u0000/g, "\uFFFD");

/** Standard Webhooks headers: the same id on every attempt, this attempt's time, and the merchant's signature. */
export async function signedHeaders(db: Db, delivery: typeof webhookDeliveries.$inferSelect, at: Date): Promise<Record<string, string>> {
  const [merchant] = await db.select({ secret: merchants.webhookSecret }).from(merchants).where(eq(merchants.id, delivery.merchantId));
  const messageId = `msg_${delivery.id}`;
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(merchant.secret).sign(messageId, at, delivery.payload),
  };
}

/**
 * Hands claimed deliveries back at once (due now) instead of leaving them to their lease, so another instance
 * sends them in its next pass. Only while still unattempted by anyone else: the attempt count must not have
 * moved. Returns how many were handed back.
 */
export async function releaseClaims(db: Db, claims: Map<string, number>): Promise<number> {
  let released = 0;
  for (const [id, attempts] of claims) {
    const rows = await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: dbNowPlus(0) })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, "pending"), eq(webhookDeliveries.attempts, attempts)))
      .returning({ id: webhookDeliveries.id });
    released += rows.length;
  }
  claims.clear();
  return released;
}

export type Dispatcher = {
  wake: () => void;
  /**
   * Claims nothing more, waits up to `graceMs` for the attempts under way, and hands back the claims still
   * open; resolves with how many it handed back. An attempt still running after that may reach its receiver
   * twice (once from here, once from the instance that takes over), under the same webhook-id.
   */
  stop: (graceMs: number) => Promise<number>;
};
const holder = globalThis as typeof globalThis & { __invoiceConsoleWebhookDispatcher?: Dispatcher };

/**
 * Sends due webhooks in the background of this server: now, after a change queues one, at the next retry,
 * and every so often for work queued elsewhere. Started on the first wake; one per process.
 */
export function wakeWebhookDispatcher(getDb: () => Promise<Db>): void {
  holder.__invoiceConsoleWebhookDispatcher ??= createWebhookDispatcher(getDb, webhookConfig());
  holder.__invoiceConsoleWebhookDispatcher.wake();
}

/** On shutdown: stops this process's dispatcher, if it ever started; how many claims it handed back. */
export async function stopWebhookDispatcher(graceMs: number): Promise<number> {
  return (await holder.__invoiceConsoleWebhookDispatcher?.stop(graceMs)) ?? 0;
}

export function createWebhookDispatcher(getDb: () => Promise<Db>, config: WebhookConfig): Dispatcher {
  gaugeSource(
    "invoice_console_webhook_outbox_pending",
    "The sandbox's webhook outbox: deliveries waiting for their first or next attempt (all instances on this database).",
    [],
    async (gauge) => {
      const [{ pending }] = await (await getDb())
        .select({ pending: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.state, "pending"));
      gauge.set(Number(pending));
    },
  );
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wokenWhileRunning = false;
  let stopped = false;
  const claims = new Map<string, number>();

  const runIn = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref(); // never what keeps a process alive
  };

  function run(): void {
    if (running) {
      wokenWhileRunning = true;
      return;
    }
    running = pass().finally(() => (running = undefined));
  }

  async function pass(): Promise<void> {
    try {
      const db = await getDb();
      do wokenWhileRunning = false;
      while (!stopped && ((await deliverDueWebhooks(db, config, claims)) > 0 || wokenWhileRunning));
      if (stopped) return;
      // How long until the next due attempt, by the database's clock (the one due dates are compared with).
      const [{ waitMs }] = await db
        .select({ waitMs: sql<number | null>`extract(epoch from min(${webhookDeliveries.nextAttemptAt}) - now()) * 1000` })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.state, "pending"));
      const wait = waitMs === null ? IDLE_POLL_MS : Math.min(Math.max(Number(waitMs), MIN_PAUSE_MS), IDLE_POLL_MS);
      // A change queued after the last pass looked must not wait for the next poll.
      runIn(wokenWhileRunning ? 0 : wait);
    } catch (error) {
      if (stopped) return;
      log.error({ err: error }, `Sandbox webhooks: a turn failed; trying again in ${IDLE_POLL_MS / 1000} s.`);
      runIn(IDLE_POLL_MS);
    }
  }

  async function stop(graceMs: number): Promise<number> {
    stopped = true;
    clearTimeout(timer);
    if (running) await Promise.race([running, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    if (claims.size === 0) return 0;
    return releaseClaims(await getDb(), claims);
  }

  return { wake: () => runIn(0), stop };
}
