import "server-only";
import { and, desc, eq, gt, inArray, lt, notInArray, type SQL, sql } from "drizzle-orm";
import { clientAddress } from "@/lib/console/auth/sign-in";
import { fixedWindowLimiter } from "@/lib/console/rate-window";
import { webhookInbox, webhookInboxIds } from "@/lib/console/schema";
import type { InboxEntry, InboxList, InboxQuery, InboxReceipt, InboxVerdict } from "@/lib/contract";
import { parseJson } from "@/lib/contract/parse-json";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { storable } from "@/lib/platform/db/storable";
import { verifySignature } from "./verify";

export type InboxConfig = { secret: string | undefined; maxEntries: number; maxBodyBytes: number; ratePerMinute: number };

/** Headers never kept: a sender's credentials are not the inbox's to show. */
const SECRET_HEADERS = new Set(["cookie", "authorization", "proxy-authorization", "api-key", "x-api-key"]);
const HEADER_VALUE_LIMIT = 2_000;
const HEADERS_LIMIT = 64;
/** The most of an oversized body read (and dropped) before the request is abandoned. */
const DRAIN_LIMIT = 8 * 1_048_576;
/** Ids are remembered this long, well past the 5-minute tolerance after which a replay is "too old" anyway. */
const REMEMBER_IDS = sql`now() - interval '1 hour'`;

/** The HTTP status a sender gets for each verdict: a verifying receiver refuses what it cannot trust. */
export const RECEIPT_STATUS: Record<InboxVerdict, number> = { valid: 200, replayed: 200, not_verified: 202, invalid: 401, too_old: 401 };

/**
 * POST /api/webhook-inbox: keeps every request — headers, body (the first `maxBodyBytes`), the verdict on its
 * signature — so any provider's webhooks can be watched, and keeps at most `maxEntries`, dropping the oldest.
 * A validly signed id seen before is a replay (ids are recorded once, atomically).
 */
export async function receiveWebhook(
  db: Db,
  input: { headers: Headers; body: ReadableStream<Uint8Array> | null; remoteAddress: string | null },
  config: InboxConfig,
): Promise<{ status: number; receipt: InboxReceipt; invoiceId: string | null }> {
  const { bytes, total, truncated } = await readCapped(input.body, config.maxBodyBytes);
  const checked = truncated
    ? {
        verdict: "not_verified" as const,
        messageId: null,
        reason: `The body is over ${config.maxBodyBytes} bytes: only its start is kept, and a cut body cannot be verified.`,
      }
    : verifySignature(config.secret, input.headers, bytes);

  let verdict: InboxVerdict = checked.verdict;
  let reason = checked.reason;
  if (verdict === "valid" && checked.messageId) {
    const recorded = await db
      .insert(webhookInboxIds)
      .values({ messageId: storable(checked.messageId) })
      .onConflictDoNothing()
      .returning();
    if (recorded.length === 0) {
      verdict = "replayed";
      reason = `Signature valid, but ${checked.messageId} was received before: a replay (or a retry after an answer that was lost). Process it once.`;
    }
  }

  const text = storable(bytes.toString("utf8"));
  const summary = truncated ? {} : summarise(text);
  const [entry] = await db
    .insert(webhookInbox)
    .values({
      verdict,
      reason,
      messageId: checked.messageId ? storable(checked.messageId) : null,
      invoiceId: summary.invoiceId ?? null,
      eventType: summary.eventType ?? null,
      headers: keptHeaders(input.headers),
      body: text,
      bodyBytes: total,
      truncated,
      remoteAddress: input.remoteAddress,
    })
    .returning({ id: webhookInbox.id });
  await prune(db, config.maxEntries, verdict);
  return {
    status: truncated ? 413 : RECEIPT_STATUS[verdict],
    receipt: { received: true, id: entry.id, verdict, reason },
    invoiceId: summary.invoiceId ?? null,
  };
}

/** GET /api/webhook-inbox: newest first; with `since`, only what arrived after that cursor. */
export async function listInbox(db: Db, query: Omit<InboxQuery, "verdict"> & { verdict?: InboxQuery["verdict"] }): Promise<InboxList> {
  const conditions: (SQL | undefined)[] = [
    query.since !== undefined ? gt(webhookInbox.seq, query.since) : undefined,
    query.invoice_id ? eq(webhookInbox.invoiceId, query.invoice_id) : undefined,
    query.verdict?.length ? inArray(webhookInbox.verdict, query.verdict) : undefined,
  ];
  const rows = await db
    .select()
    .from(webhookInbox)
    .where(and(...conditions))
    .orderBy(desc(webhookInbox.seq))
    .limit(query.limit);
  const entries: InboxEntry[] = rows.map((r) => ({
    id: r.id,
    seq: r.seq,
    received_at: r.receivedAt.toISOString(),
    verdict: r.verdict as InboxVerdict,
    reason: r.reason,
    message_id: r.messageId,
    invoice_id: r.invoiceId,
    event_type: r.eventType,
    headers: r.headers,
    body: r.body,
    body_bytes: r.bodyBytes,
    truncated: r.truncated,
  }));
  return { entries, cursor: Math.max(query.since ?? 0, ...entries.map((e) => e.seq)) };
}

/**
 * Keeps at most `limit` bytes. The rest is read and dropped (so the sender gets its answer rather than a reset
 * connection mid-upload) up to DRAIN_LIMIT, after which the request is abandoned: nothing a sender does makes
 * the inbox hold, or wait for, more.
 */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<{ bytes: Buffer; total: number; truncated: boolean }> {
  if (!body) return { bytes: Buffer.alloc(0), total: 0, truncated: false };
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (kept <= limit) {
        chunks.push(Buffer.from(value));
        kept += value.byteLength;
      }
      if (total > DRAIN_LIMIT) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = Buffer.concat(chunks);
  return total > limit ? { bytes: bytes.subarray(0, limit), total, truncated: true } : { bytes, total, truncated: false };
}

/** The event type and the invoice a body names, when it is a status webhook (any provider's, read leniently). */
function summarise(text: string): { invoiceId?: string; eventType?: string } {
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    return {};
  }
  if (!body || typeof body !== "object") return {};
  const b = body as {
    type?: unknown;
    event?: unknown;
    data?: { invoice?: { invoice_id?: unknown; id?: unknown }; invoice_id?: unknown };
    invoice_id?: unknown;
  };
  const id = [b.data?.invoice?.invoice_id, b.data?.invoice?.id, b.data?.invoice_id, b.invoice_id].find(
    (v) => typeof v === "string" || typeof v === "number",
  );
  const type = [b.type, b.event].find((v) => typeof v === "string");
  return {
    invoiceId: id !== undefined && String(id).length <= 500 ? storable(String(id)) : undefined,
    eventType: typeof type === "string" ? storable(type.slice(0, 200)) : undefined,
  };
}

function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (SECRET_HEADERS.has(name) || Object.keys(kept).length >= HEADERS_LIMIT) continue;
    kept[name] = storable(value.slice(0, HEADER_VALUE_LIMIT));
  }
  return kept;
}

/** Entries whose signature was verified: whatever strangers send, they are kept in a budget of their own. */
const VERIFIED: InboxVerdict[] = ["valid", "replayed"];

/**
 * Keeps the newest `max` verified entries and, apart from them, the newest `max` of the rest (not verified,
 * invalid, too old), so a flood of unsigned posts can never push out a webhook that was signed; and ids only
 * as long as a replay of them could still pass as recent.
 */
async function prune(db: Db, max: number, verdict: InboxVerdict): Promise<void> {
  const sameBudget = VERIFIED.includes(verdict) ? inArray(webhookInbox.verdict, VERIFIED) : notInArray(webhookInbox.verdict, VERIFIED);
  const oldestKept = db
    .select({ seq: webhookInbox.seq })
    .from(webhookInbox)
    .where(sameBudget)
    .orderBy(desc(webhookInbox.seq))
    .offset(max - 1)
    .limit(1);
  await db.delete(webhookInbox).where(and(sameBudget, lt(webhookInbox.seq, oldestKept)));
  await db.delete(webhookInboxIds).where(lt(webhookInboxIds.seenAt, REMEMBER_IDS));
}

/** How long the sender waits at most for what a validly signed webhook sets off (the search index's re-read). */
const AFTER_VALID_MS = 2_000;

/**
 * The whole of POST /api/webhook-inbox: receive, then answer the sender JSON (a problem for a refusal).
 * `afterValid` runs for a validly signed, first-time webhook that names an invoice (bounded in time; its
 * failure is its own business).
 */
export async function answerInbox(
  db: Db,
  request: Request,
  config: InboxConfig,
  afterValid?: (invoiceId: string) => Promise<void>,
): Promise<Response> {
  const remoteAddress = clientAddress(request.headers);
  const waitSeconds = inboxRate(config.ratePerMinute).take(remoteAddress ?? "unknown");
  if (waitSeconds > 0) {
    await request.body?.cancel().catch(() => {});
    throw Problem.of("too_many_requests", {
      detail: `This address sent more than ${config.ratePerMinute} webhooks in a minute. Try again in ${waitSeconds} s.`,
      headers: { "retry-after": String(waitSeconds) },
    });
  }
  const { status, receipt, invoiceId } = await receiveWebhook(db, { headers: request.headers, body: request.body, remoteAddress }, config);
  if (afterValid && receipt.verdict === "valid" && invoiceId) {
    await Promise.race([afterValid(invoiceId).catch(() => {}), new Promise((resolve) => setTimeout(resolve, AFTER_VALID_MS).unref())]);
  }
  const headers = { "cache-control": "no-store" };
  if (status < 400) return Response.json(receipt, { status, headers });
  const code = status === 413 ? "body_too_large" : receipt.verdict === "too_old" ? "webhook_too_old" : "webhook_signature_invalid";
  const title =
    status === 413
      ? "The webhook's body is too large"
      : receipt.verdict === "too_old"
        ? "The webhook is too old"
        : "The webhook's signature is not valid";
  return Response.json(
    { type: `urn:invoice-console:problem:${code}`, title, status, detail: receipt.reason, code, ...receipt },
    { status, headers: { ...headers, "content-type": "application/problem+json" } },
  );
}

const holder = globalThis as typeof globalThis & { __invoiceConsoleInboxRate?: ReturnType<typeof fixedWindowLimiter> };
/** Posts to the inbox per source address and minute, on this instance (one limiter per process). */
function inboxRate(perMinute: number) {
  holder.__invoiceConsoleInboxRate ??= fixedWindowLimiter({ limit: perMinute, windowMs: 60_000 });
  return holder.__invoiceConsoleInboxRate;
}
