// For scripts/bench/bench-audit.ts: fills console.audit_log with a realistic mix of entries, in the database, a
// chunk of `INSERT … SELECT … FROM generate_series` at a time, so the chain's trigger numbers and hashes every one
// (drizzle/0021_audit_chain.sql) exactly as it does for entries the console writes. Deterministic: every choice is a
// hash of the entry's number (hashint8extended), so two runs with the same options hold the same log.
import { sql } from "drizzle-orm";
import type { ActivityKind } from "@/lib/contract/activity";
import type { Db } from "@/lib/platform/db";

/** The console's people, busiest first (weights out of 100), and the addresses failed sign-ins name. */
export const PEOPLE: [string, number][] = [
  ["ana@example.com", 24],
  ["ben@example.com", 18],
  ["chloe@example.com", 14],
  ["dev@example.com", 10],
  ["eva@example.com", 9],
  ["farid@example.com", 8],
  ["grace@example.com", 6],
  ["hugo@example.com", 5],
  ["ines@example.com", 4],
  ["jon@example.com", 2],
];

/**
 * Kinds and their weights per 1,000 entries: status changes and sign-ins dominate, as in a console used daily.
 * The chain's own kinds (audit.*) are left out: the log writes them itself, once.
 */
export const KIND_WEIGHTS: Partial<Record<ActivityKind, number>> = {
  "invoice.status_change": 380,
  sign_in: 240,
  "session.ended": 50,
  "sign_in.failed": 40,
  "invoice.archive": 35,
  "approval.requested": 30,
  "webhook.simulate": 30,
  "invoices.export": 25,
  "approval.approved": 20,
  "saved_view.created": 15,
  "sign_in.code_failed": 10,
  "approval.rejected": 6,
  "saved_view.removed": 6,
  "session.ended_others": 5,
  "activity.export": 5,
  "approval.withdrawn": 4,
  "approval.expired": 4,
  "approval.invoice_changed": 3,
  "user.role_changed": 2,
  "two_factor.added": 2,
  "user.invited": 2,
  "user.invitation_accepted": 2,
  "user.reset_issued": 2,
  "user.password_reset": 2,
  "user.created": 2,
  "sign_in.recovery_code_used": 1,
  "two_factor.removed": 1,
  "two_factor.requirement_changed": 1,
  "policy.changed": 1,
  "user.disabled": 1,
  "user.enabled": 1,
  "user.sessions_ended": 1,
};

/** Written by the console itself, not by a person. */
const SYSTEM_KINDS = ["sign_in.failed", "approval.expired", "approval.invoice_changed"];

/** What people type as a status change's reason or an approval's decision; a third also name a ticket. */
export const REASONS = [
  "Customer paid by bank transfer",
  "Customer asked to cancel the order",
  "Duplicate invoice, created twice by the shop",
  "Payment arrived after expiry, confirmed on chain",
  "Underpaid, customer sent the rest separately",
  "Refund agreed with the customer",
  "Test invoice from the staging shop",
  "Wrong amount, a new invoice was issued",
  "Order cancelled by the merchant",
  "Fraud suspected, checked with compliance",
  "Customer confirmed payment by email",
  "Overpayment returned to the sender",
  "Shop went offline before payment",
  "Chargeback dispute settled",
  "Manual correction after support call",
  "Exchange rate moved, invoice reissued",
  "Customer chose another currency",
  "Network congestion delayed confirmation",
  "Settled in cash at the counter",
  "Cleanup of old pending invoices",
  "Requested by accounting for month end",
  "Partial delivery, rest invoiced later",
  "Wallet address typo reported by customer",
  "Goodwill gesture approved by sales",
  "Subscription renewal cancelled",
  "Confirmed with the payment provider",
  "Mistaken status change reverted",
  "Invoice merged into a larger order",
  "Expired while the customer was travelling",
  "Double charge reported by customer",
];

/** Words the benchmark's text filter looks for: common, middling and rare ones, from REASONS. */
export const REASON_WORDS = [
  "customer",
  "refund",
  "duplicate",
  "transfer",
  "ticket 1",
  "compliance",
  "chargeback",
  "accounting",
  "wallet",
  "reissued",
];

/** The share of the log each value gets, as a `slots`-long list of values: a weighted choice is one index. */
function slots(weights: [string, number][], size: number): string[] {
  const total = weights.reduce((a, [, w]) => a + w, 0);
  const out: string[] = [];
  for (const [value, w] of weights) for (let i = 0; i < Math.round((w / total) * size); i++) out.push(value);
  while (out.length < size) out.push(weights[0][0]);
  return out.slice(0, size);
}

const textArray = (values: string[]) => sql`${`{${values.map((v) => `"${v.replaceAll('"', '\\"')}"`).join(",")}}`}::text[]`;

export type FillPlan = { entries: number; chunk: number; from: number; to: number; invoices: number };

/**
 * Writes entries 1..entries, `chunk` a statement, each at an instant between `from` and `to` that grows with its
 * number (the log is written over time, so `at` follows `seq`). Calls `progress` after each chunk.
 */
export async function fillAuditLog(db: Db, plan: FillPlan, progress: (done: number) => void): Promise<void> {
  const kinds = textArray(slots(Object.entries(KIND_WEIGHTS) as [string, number][], 1000));
  const people = textArray(slots(PEOPLE, 100));
  const reasons = textArray(REASONS);
  const emails = textArray(PEOPLE.map(([email]) => email));
  const step = (plan.to - plan.from) / plan.entries;
  // The chain trigger finds the last entry with a query planned from the table's statistics: on a fresh table (one
  // entry, the chain's start) that plan reads every entry, and a 50,000-entry statement would take minutes. So a
  // small first statement, and statistics brought up to date after every one, as autovacuum would between writes.
  for (let start = 1; start <= plan.entries; ) {
    const end = Math.min(plan.entries, start + (start === 1 ? Math.min(1000, plan.chunk) : plan.chunk) - 1);
    await db.execute(sql`
      insert into console.audit_log (at, actor_id, actor_email, action, target, detail)
      select at, case when actor = 'system' then null else 'usr_' || left(md5(actor), 12) end, actor, action, target, detail
      from (
        select g, k.action, p.actor,
          -- Its own slot of time, somewhere inside it: ascending with g.
          to_timestamp((${plan.from} + (g - 1 + (h.h7 % 1000) / 1000.0) * ${step}) / 1000.0) as at,
          case
            when k.action like 'invoice.%' or k.action = 'webhook.simulate' or (k.action like 'approval.%' and h.h3 % 10 <> 0)
              -- An invoice is touched over a few days around its creation: its number follows the entry's.
              then 'invoice:inv_' || greatest(1, (g * ${plan.invoices}::bigint / ${plan.entries}) - h.h3 % 400)
            when k.action like 'approval.%' then 'bulk_job:' || md5('job' || (g / 50))::uuid
            when k.action like 'saved_view.%' then 'saved_view:' || md5('view' || (h.h3 % 3000))::uuid
            when k.action = 'sign_in.failed' and h.h3 % 4 = 0 then 'user:stranger' || (h.h3 % 5000) || '@example.net'
            when k.action = 'sign_in.failed' or k.action like 'user.%' then 'user:' || (${emails})[1 + h.h3 % ${PEOPLE.length}]
            when k.action = 'two_factor.requirement_changed' then 'settings:two_factor'
            when k.action like 'sign_in%' or k.action like 'session.%' or k.action like 'two_factor.%' then 'user:' || p.actor
            when k.action = 'policy.changed' then 'policy:transitions'
            when k.action = 'invoices.export' then 'invoices'
            else 'activity'
          end as target,
          jsonb_strip_nulls(jsonb_build_object(
            'request_id', case when p.actor <> 'system' then 'req_' || left(md5(g::text), 16) end,
            'to', case when k.action = 'invoice.status_change' then (array['completed','expired','cancelled','pending'])[1 + h.h4 % 4] end,
            'reason', case
              when k.action = 'invoice.status_change' and h.h4 % 10 < 8 then r.reason
              when k.action = 'sign_in.failed' then (array['password','password','password','disabled'])[1 + h.h4 % 4]
            end,
            'decision_reason', case when k.action in ('approval.approved', 'approval.rejected') and h.h4 % 2 = 0 then r.reason end,
            'address', case when k.action like 'sign_in%' then '203.0.113.' || (h.h4 % 250) end
          )) as detail
        from generate_series(${start}::bigint, ${end}::bigint) as g
        -- Independent choices, each a hash of the entry's number (taken modulo a prime first: abs() cannot overflow).
        cross join lateral (
          select abs(hashint8extended(g, 1) % 1000003) as h1, abs(hashint8extended(g, 2) % 1000003) as h2,
            abs(hashint8extended(g, 3) % 1000003) as h3, abs(hashint8extended(g, 4) % 1000003) as h4,
            abs(hashint8extended(g, 5) % 1000003) as h5, abs(hashint8extended(g, 6) % 1000003) as h6,
            abs(hashint8extended(g, 7) % 1000003) as h7
        ) as h
        cross join lateral (select (${kinds})[1 + h.h1 % 1000] as action) as k
        cross join lateral (
          select case when k.action = any(${textArray(SYSTEM_KINDS)}) then 'system' else (${people})[1 + h.h2 % 100] end as actor
        ) as p
        cross join lateral (
          select (${reasons})[1 + h.h5 % ${REASONS.length}]
            || case when h.h6 % 3 = 0 then ' (ticket ' || (10000 + h.h6 % 90000) || ')' else '' end as reason
        ) as r
      ) as entries
      order by g`);
    await db.execute(sql`analyze console.audit_log`);
    progress(end);
    start = end + 1;
  }
}
