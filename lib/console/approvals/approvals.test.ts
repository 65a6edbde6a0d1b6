import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listActivity } from "@/lib/console/activity/query";
import { auditTrail } from "@/lib/console/audit";
import { approvalRequests, invoiceChangeLeases, users } from "@/lib/console/schema";
import { activityQuerySchema } from "@/lib/contract/activity";
import { getDatabase } from "@/lib/platform/db";

/**
 * Four eyes, through the console's own routes against a real HTTP provider: a change the policy gives a second
 * person waits as a request (202), nothing reaches the provider until someone else approves it, and then exactly
 * once, only if the invoice is still as it was.
 */
type Route = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
let server: Server;
const invoices = new Map<string, { status: string; received: string }>();
let patches: { id: string; body: string }[] = [];
let delayMs = 0;
let routes: {
  patch: Route;
  approve: Route;
  reject: Route;
  withdraw: Route;
  list: (r: Request, c: { params: Promise<Record<string, never>> }) => Promise<Response>;
};
const cookies: Record<string, string> = {};

const invoice = (id: string) => {
  const i = invoices.get(id)!;
  return {
    invoice_id: id,
    order_id: `ORD-${id.slice(-4)}`,
    status: i.status,
    fiat_amount: 24,
    fiat_currency: "EUR",
    crypto_amount: 0.0004,
    currency: "BTC",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: new Date().toISOString(),
    payment: {
      address: "bc1q",
      network: "bitcoin",
      amount_due: 0.0004,
      amount_received: Number(i.received),
      rate: 60000,
      transactions: [],
    },
  };
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const id = decodeURIComponent(req.url!.split("/").at(-1)!);
    if (!invoices.has(id)) return res.writeHead(404, { "content-type": "application/json" }).end("{}");
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (req.method === "PATCH") {
      patches.push({ id, body });
      invoices.get(id)!.status = JSON.parse(body).status;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(invoice(id)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.INVOICING_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  process.env.INVOICING_API_KEY = "sk_test_approvals";
  routes = {
    patch: (await import("@/app/api/invoices/[id]/route")).PATCH,
    approve: (await import("@/app/api/approvals/[id]/approve/route")).POST,
    reject: (await import("@/app/api/approvals/[id]/reject/route")).POST,
    withdraw: (await import("@/app/api/approvals/[id]/withdraw/route")).POST,
    list: (await import("@/app/api/approvals/route")).GET,
  };
  const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
  for (const who of ["support", "finance", "finance2", "admin", "viewer"] as const) {
    cookies[who] = await signedInCookie(who === "finance2" ? "finance" : who);
  }
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let n = 0;
/** A fresh invoice per test: requests wait one per invoice. */
function newInvoice(status: string, received = "0") {
  const id = `invoice_0190a1d2-3333-7000-8000-${String(++n).padStart(12, "0")}`;
  invoices.set(id, { status, received });
  return id;
}

beforeEach(() => {
  patches = [];
  delayMs = 0;
});

async function call(route: Route, who: string, id: string, body: unknown, method = "POST") {
  const response = await route(
    new Request(`http://console.test/api/x/${id}`, {
      method,
      headers: { cookie: cookies[who], origin: "http://console.test", "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );
  return { status: response.status, body: await response.json() };
}
const ask = (who: string, id: string, status: string, reason = "Asked in a test") =>
  call(routes.patch, who, id, { status, reason }, "PATCH");
const approve = (who: string, approvalId: string, reason = "Checked") => call(routes.approve, who, approvalId, { reason });

describe("the transition policy's defaults", () => {
  it("asking to complete a part-paid invoice keeps what never arrived before the approver", async () => {
    const id = newInvoice("paid_partial", "0.0001");
    const { status, body } = await ask("finance", id, "completed", "Customer paid the rest by bank transfer");
    expect(status).toBe(202);
    expect(body.approval.snapshot.shortfall_sentence).toBe("0.0003 BTC (€18.00) of the 0.0004 BTC due has not been received.");
    const cancel = await ask("support", newInvoice("paid_partial", "0.0001"), "cancelled");
    expect(cancel.body.approval.snapshot.shortfall_sentence).toBeNull();
  });

  it("support cancels an invoice that received nothing at once", async () => {
    const id = newInvoice("new");
    const { status, body } = await ask("support", id, "cancelled");
    expect(status).toBe(200);
    expect(body.status).toBe("cancelled");
    expect(patches).toHaveLength(1);
  });

  it("support's cancel of a partly paid invoice waits for finance: 202 {approval}, nothing sent, recorded", async () => {
    const id = newInvoice("paid_partial", "0.0001");
    const { status, body } = await ask("support", id, "cancelled", "Customer asked to cancel");
    expect(status).toBe(202);
    expect(body.approval).toMatchObject({ state: "pending", invoice_id: id, from_status: "paid_partial", to_status: "cancelled" });
    expect(body.approval.why).toMatch(/received crypto/);
    expect(patches).toEqual([]);
    const trail = await auditTrail(await getDatabase(), `invoice:${id}`);
    expect(trail.at(-1)).toMatchObject({
      action: "approval.requested",
      detail: { reason: "Customer asked to cancel", to: "cancelled", order_id: `ORD-${id.slice(-4)}` },
    });
    // A second ask for the same invoice while one waits is refused.
    const again = await ask("support", id, "cancelled");
    expect(again.body.code).toBe("approval_waiting");
    expect(again.body.detail).toMatch(/^\S+ already asked to set it to Cancelled\. Another change that needs approval can be asked once/);
  });

  it("finance marks an invoice completed and an admin approves it: one PATCH, recorded on the invoice", async () => {
    const id = newInvoice("pending");
    const asked = await ask("finance", id, "completed", "Paid by bank transfer");
    expect(asked.status).toBe(202);
    const { status, body } = await approve("admin", asked.body.approval.id, "Saw the transfer");
    expect(status).toBe(200);
    expect(body.approval).toMatchObject({ state: "approved", outcome: "changed", decision_reason: "Saw the transfer" });
    expect(patches).toEqual([{ id, body: JSON.stringify({ status: "completed" }) }]);
    const actions = (await auditTrail(await getDatabase(), `invoice:${id}`)).map((e) => [e.action, e.detail.outcome ?? null]);
    expect(actions).toEqual([
      ["approval.requested", null],
      ["invoice.status_change", "changed"],
      ["approval.approved", null],
    ]);
  });

  it("support may not mark an invoice completed: 403 transition_not_allowed naming who may", async () => {
    const id = newInvoice("pending");
    const { status, body } = await ask("support", id, "completed");
    expect(status).toBe(403);
    expect(body.code).toBe("transition_not_allowed");
    expect(body.detail).toContain("Only finance and admin can mark an invoice completed.");
  });

  it("support marks a new invoice expired at once, but not a partly paid one", async () => {
    expect((await ask("support", newInvoice("new"), "expired")).status).toBe(200);
    const refused = await ask("support", newInvoice("paid_partial", "0.0001"), "expired");
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(
      /^An invoice can be marked expired only from New, Pending, Completed and Cancelled; this one is Partly paid\./,
    );
  });

  it("any change from cancelled needs approval, even one the role may ask for", async () => {
    const { status, body } = await ask("admin", newInvoice("cancelled"), "expired");
    expect(status).toBe(202);
    expect(body.approval.why).toMatch(/from Cancelled/);
  });
});

describe("deciding a request", () => {
  it("nobody approves their own request: 403 own_request, nothing sent", async () => {
    const asked = await ask("finance", newInvoice("pending"), "completed");
    const { status, body } = await approve("finance", asked.body.approval.id);
    expect(status).toBe(403);
    expect(body.code).toBe("own_request");
    expect(patches).toEqual([]);
  });

  it("a stale request is refused: 409 invoice_changed naming the status now, and closed as such", async () => {
    const id = newInvoice("pending");
    const asked = await ask("finance", id, "completed");
    invoices.get(id)!.status = "expired";
    const { status, body } = await approve("admin", asked.body.approval.id);
    expect(status).toBe(409);
    expect(body.code).toBe("invoice_changed");
    expect(body.detail).toMatch(/^The invoice is Expired now; it was Pending when/);
    expect(patches).toEqual([]);
    const list = await routes.list(
      new Request("http://console.test/api/approvals?state=invoice_changed", { headers: { cookie: cookies.admin } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(((await list.json()) as { items: { id: string }[] }).items.map((a) => a.id)).toContain(asked.body.approval.id);
  });

  it("crypto received since it was asked, in the same status, closes it as changed: its approver read what was received", async () => {
    const id = newInvoice("pending");
    const asked = await ask("finance", id, "completed");
    invoices.get(id)!.received = "0.0005";
    const { status, body } = await approve("admin", asked.body.approval.id);
    expect(status).toBe(409);
    expect(body.code).toBe("invoice_changed");
    expect(body.detail).toMatch(
      /^The invoice has received 0\.0005\d* BTC; it had received nothing when the change was asked for\. Nothing was sent/,
    );
    expect(patches).toEqual([]);
    const trail = await auditTrail(await getDatabase(), `invoice:${id}`);
    expect(trail.at(-1)).toMatchObject({ action: "approval.invoice_changed", detail: { status_now: "pending", received_now: "0.0005" } });
  });

  it("a payment the approver saw is not a change: the same amount read again approves", async () => {
    const id = newInvoice("paid_partial", "0.0001");
    const asked = await ask("support", id, "cancelled");
    expect((await approve("admin", asked.body.approval.id)).status).toBe(200);
    expect(patches).toHaveLength(1);
  });

  it("two approvers at once: exactly one PATCH reaches the provider, the other is told it is no longer waiting", async () => {
    const waiting = await ask("finance", newInvoice("new"), "completed");
    patches = [];
    delayMs = 100;
    const answers = await Promise.all([approve("admin", waiting.body.approval.id), approve("finance2", waiting.body.approval.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe("approval_closed");
    expect(patches).toHaveLength(1);
  });

  it("two people asking at once for changes that need approval: one request waits, the other is told so", async () => {
    const id = newInvoice("paid_partial", "0.0001");
    delayMs = 60;
    const answers = await Promise.all([ask("support", id, "cancelled"), ask("finance", id, "completed")]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe("approval_waiting");
    const waiting = await (await getDatabase()).select().from(approvalRequests).where(eq(approvalRequests.invoiceId, id));
    expect(waiting.map((r) => r.state)).toEqual(["pending"]);
  });

  it("an approval beside a direct change of the same invoice: each acts on the invoice as the other left it", async () => {
    for (const [approveDelay, askDelay] of [
      [0, 0],
      [0, 30],
      [30, 0],
    ]) {
      const id = newInvoice("new");
      const waiting = await ask("finance", id, "completed", "Paid by bank transfer");
      expect(waiting.status).toBe(202);
      patches = [];
      delayMs = 50;
      const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      await Promise.all([
        later(approveDelay).then(() => approve("admin", waiting.body.approval.id)),
        later(askDelay).then(() => ask("support", id, "expired")),
      ]);
      // Every change sent was decided on the status the one before it left, and the log says so.
      const sent = (await auditTrail(await getDatabase(), `invoice:${id}`)).filter(
        (e) => e.action === "invoice.status_change" && e.detail.outcome === "changed",
      );
      let status = "new";
      for (const entry of sent) {
        expect(entry.detail.from).toBe(status);
        status = String(entry.detail.to);
      }
      expect(patches).toHaveLength(sent.length);
      expect(invoices.get(id)!.status).toBe(status);
    }
  });

  it("a change asked while another of the invoice is still being sent waits, then is refused (409), recorded, nothing sent", async () => {
    const id = newInvoice("new");
    const db = await getDatabase();
    const key = createHash("sha256").update(id).digest("hex");
    // Another instance holds the invoice's lease, and keeps renewing it.
    await db.insert(invoiceChangeLeases).values({ invoiceKey: key, holder: "another instance", until: new Date(Date.now() + 60_000) });
    try {
      const { status, body } = await ask("support", id, "cancelled", "Customer asked");
      expect(status).toBe(409);
      expect(body.code).toBe("change_in_progress");
      expect(body.detail).toMatch(/^Someone else's change of this invoice is still being sent\. Nothing was sent for yours/);
      expect(patches).toEqual([]);
      const [entry] = (await auditTrail(db, `invoice:${id}`)).filter((e) => e.action === "invoice.status_change");
      expect(entry.detail).toMatchObject({ to: "cancelled", reason: "Customer asked", outcome: "busy" });
    } finally {
      await db.delete(invoiceChangeLeases).where(eq(invoiceChangeLeases.invoiceKey, key));
    }
  }, 30_000);

  it("an approval while another change of the invoice is being sent: refused (409), recorded, and the request waits again", async () => {
    const id = newInvoice("pending");
    const asked = await ask("finance", id, "completed", "Paid by bank transfer");
    expect(asked.status).toBe(202);
    const db = await getDatabase();
    const key = createHash("sha256").update(id).digest("hex");
    await db.insert(invoiceChangeLeases).values({ invoiceKey: key, holder: "another instance", until: new Date(Date.now() + 60_000) });
    try {
      const { status, body } = await approve("admin", asked.body.approval.id, "Saw the transfer");
      expect(status).toBe(409);
      expect(body.code).toBe("change_in_progress");
      expect(patches).toEqual([]);
      const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, asked.body.approval.id));
      expect(row.state).toBe("pending");
      const busy = (await auditTrail(db, `invoice:${id}`)).find((e) => e.detail.outcome === "busy");
      expect(busy).toMatchObject({
        action: "invoice.status_change",
        detail: { to: "completed", reason: "Paid by bank transfer", approval: asked.body.approval.id, approval_reason: "Saw the transfer" },
      });
    } finally {
      await db.delete(invoiceChangeLeases).where(eq(invoiceChangeLeases.invoiceKey, key));
    }
  }, 30_000);

  it("a rejection says why and sends nothing; approving it afterwards is a 409", async () => {
    const asked = await ask("finance", newInvoice("pending"), "completed");
    const rejected = await call(routes.reject, "admin", asked.body.approval.id, { reason: "No transfer arrived" });
    expect(rejected.body.approval).toMatchObject({ state: "rejected", decision_reason: "No transfer arrived" });
    expect((await approve("finance2", asked.body.approval.id)).body.code).toBe("approval_closed");
    expect(patches).toEqual([]);
    // The activity log finds the rejection by the words of its reason, as it finds a request by the request's.
    const found = await listActivity(await getDatabase(), activityQuerySchema.parse({ q: "transfer ARRIVED" }), "UTC");
    expect(found.items.map((e) => e.action)).toEqual(["approval.rejected"]);
  });

  it("is not carried out once the person who asked was disabled or lost the role to ask: closed, nothing sent", async () => {
    const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
    const db = await getDatabase();
    for (const [who, change] of [
      ["leaver", { banned: true }],
      ["mover", { role: "viewer" }],
    ] as const) {
      cookies[who] = await signedInCookie("support");
      // Received crypto: support's cancel waits for approval.
      const asked = await ask(who, newInvoice("pending", "0.5"), "cancelled", "Order voided");
      expect(asked.status).toBe(202);
      const [request] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, asked.body.approval.id));
      await db.update(users).set(change).where(eq(users.id, request.requestedBy));
      const answer = await approve("finance", asked.body.approval.id, "Looks right");
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe("requester_changed");
      expect(answer.body.detail).toMatch(who === "leaver" ? /was disabled\. Nothing was sent/ : /role \(viewer\) may no longer/);
      const [closed] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, asked.body.approval.id));
      expect(closed.state).toBe("requester_changed");
      expect(patches).toEqual([]);
      const trail = await auditTrail(db, `invoice:${closed.invoiceId}`);
      expect(trail.map((e) => e.action)).toEqual(["approval.requested", "approval.requester_changed"]);
    }
  });

  it("is not carried out once the policy no longer lets the requester's role make it from that status", async () => {
    const db = await getDatabase();
    const [{ saveTransitionPolicy }, { DEFAULT_TRANSITION_POLICY }] = await Promise.all([
      import("./policy-store"),
      import("@/lib/contract/transition-policy"),
    ]);
    const asked = await ask("support", newInvoice("paid_partial", "0.5"), "cancelled", "Order voided");
    expect(asked.status).toBe(202);
    // An admin narrows the policy meanwhile: cancelling from partly paid is no longer a rule of its own.
    const cancelled = DEFAULT_TRANSITION_POLICY.targets.cancelled;
    await saveTransitionPolicy(
      db,
      {
        ...DEFAULT_TRANSITION_POLICY,
        targets: {
          ...DEFAULT_TRANSITION_POLICY.targets,
          cancelled: { ...cancelled, from: cancelled.from.filter((f) => f !== "paid_partial") },
        },
      },
      "system",
    );
    try {
      const answer = await approve("finance", asked.body.approval.id, "Looks right");
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe("requester_changed");
      expect(answer.body.detail).toMatch(/only from .*; this one is Partly paid/);
      expect(patches).toEqual([]);
    } finally {
      await saveTransitionPolicy(db, DEFAULT_TRANSITION_POLICY, "system");
    }
  });

  it("only the person who asked withdraws; a decision needs a reason (422 /reason)", async () => {
    const asked = await ask("finance", newInvoice("pending"), "completed");
    expect((await call(routes.withdraw, "support", asked.body.approval.id, { reason: "mine" })).status).toBe(403);
    const noReason = await approve("admin", asked.body.approval.id, "  ");
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/reason"]);
    const withdrawn = await call(routes.withdraw, "finance", asked.body.approval.id, { reason: "Wrong invoice" });
    expect(withdrawn.body.approval.state).toBe("withdrawn");
  });

  it("a viewer may neither ask nor approve; support may ask but not approve", async () => {
    const asked = await ask("finance", newInvoice("pending"), "completed");
    expect((await approve("viewer", asked.body.approval.id)).status).toBe(403);
    expect((await approve("support", asked.body.approval.id)).body.code).toBe("forbidden");
  });

  it("a request past its time expires: listed as expired, recorded, and no longer approvable", async () => {
    const id = newInvoice("pending");
    const asked = await ask("finance", id, "completed");
    const db = await getDatabase();
    await db
      .update(approvalRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(approvalRequests.id, asked.body.approval.id));
    expect((await approve("admin", asked.body.approval.id)).body.code).toBe("approval_closed");
    expect((await auditTrail(db, `invoice:${id}`)).at(-1)).toMatchObject({ action: "approval.expired", actorEmail: "system" });
    expect(patches).toEqual([]);
  });

  it("GET /api/approvals refuses an unknown state with 422 on state", async () => {
    const response = await routes.list(
      new Request("http://console.test/api/approvals?state=done", { headers: { cookie: cookies.admin } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(response.status).toBe(422);
  });
});

describe("a bulk cancel whose requester was disabled meanwhile", () => {
  it("is not approved: 409 requester_changed, the request closed, its invoices not run", async () => {
    const db = await getDatabase();
    const [
      { saveTransitionPolicy },
      { startBulkCancel },
      { readBulkJob },
      { sessionUser },
      { DEFAULT_TRANSITION_POLICY },
      { signedInCookie },
    ] = await Promise.all([
      import("./policy-store"),
      import("@/lib/console/invoices/bulk-start"),
      import("@/lib/console/invoices/bulk-cancel"),
      import("@/lib/console/auth/session"),
      import("@/lib/contract/transition-policy"),
      import("@/lib/console/auth/signed-in-cookie"),
    ]);
    await saveTransitionPolicy(db, { ...DEFAULT_TRANSITION_POLICY, bulk_approval_over: 1 }, "system");
    try {
      const leaver = (await sessionUser(new Headers({ cookie: await signedInCookie("support") })))!;
      const started: string[] = [];
      const { jobId, approval } = await startBulkCancel(db, leaver, [newInvoice("new"), newInvoice("new")], "Shop closed", (id) =>
        started.push(id),
      );
      await db.update(users).set({ banned: true }).where(eq(users.id, leaver.id));
      const answer = await approve("finance", approval!.id, "Closing confirmed");
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe("requester_changed");
      expect(started).toEqual([]);
      expect(patches).toEqual([]);
      const job = (await readBulkJob(db, leaver, jobId))!;
      expect(job.finished_at).not.toBeNull();
      expect(job.items.map((i) => i.outcome)).toEqual(["not_run", "not_run"]);
    } finally {
      await saveTransitionPolicy(db, DEFAULT_TRANSITION_POLICY, "system");
    }
  });
});

describe("a bulk cancel above the policy's threshold", () => {
  it("waits as one request, nothing sent; approved, it runs; rejected, its invoices are not run", async () => {
    const db = await getDatabase();
    const [{ saveTransitionPolicy }, { startBulkCancel }, { readBulkJob }, { sessionUser }, { DEFAULT_TRANSITION_POLICY }] =
      await Promise.all([
        import("./policy-store"),
        import("@/lib/console/invoices/bulk-start"),
        import("@/lib/console/invoices/bulk-cancel"),
        import("@/lib/console/auth/session"),
        import("@/lib/contract/transition-policy"),
      ]);
    await saveTransitionPolicy(db, { ...DEFAULT_TRANSITION_POLICY, bulk_approval_over: 2 }, "system");
    try {
      const support = (await sessionUser(new Headers({ cookie: cookies.support })))!;
      const started: string[] = [];
      const ids = [newInvoice("new"), newInvoice("pending"), newInvoice("new")];
      // Two that need approval of their own: one received crypto, one was completed.
      const paid = newInvoice("paid_partial", "0.5");
      const completed = newInvoice("completed", "1");
      const { jobId, approval } = await startBulkCancel(db, support, [...ids, paid, completed], "Shop closed", (id) => started.push(id));
      expect(approval).toMatchObject({ kind: "bulk_cancel", state: "pending", snapshot: { count: 5 } });
      expect(started).toEqual([]);
      expect((await readBulkJob(db, support, jobId))?.approval?.id).toBe(approval!.id);

      const approved = await approve("finance", approval!.id, "Closing confirmed");
      expect(approved.body.approval).toMatchObject({ state: "approved", outcome: "started" });
      for (let i = 0; i < 100 && !(await readBulkJob(db, support, jobId))?.finished_at; i++) await new Promise((r) => setTimeout(r, 50));
      const job = (await readBulkJob(db, support, jobId))!;
      expect(job.counts.cancelled).toBe(3);
      expect(patches.map((p) => p.id).sort()).toEqual([...ids].sort());
      // The job's approval was for its size (its approver saw a count): those two wait for requests of their own.
      expect(job.counts.awaiting_approval).toBe(2);
      for (const id of [paid, completed]) {
        const [own] = await db.select().from(approvalRequests).where(eq(approvalRequests.invoiceId, id));
        expect(own).toMatchObject({ kind: "status_change", state: "pending", toStatus: "cancelled" });
      }

      // A second job, rejected: it ends, every invoice not run, saying who rejected it and why.
      const second = await startBulkCancel(db, support, [newInvoice("new"), newInvoice("new"), newInvoice("new")], "Again", () => {});
      await call(routes.reject, "admin", second.approval!.id, { reason: "Not this week" });
      const rejected = (await readBulkJob(db, support, second.jobId))!;
      expect(rejected.finished_at).not.toBeNull();
      expect(rejected.items.map((i) => [i.outcome, i.detail])).toEqual(
        Array(3).fill(["not_run", expect.stringMatching(/^Not run — rejected by admin-.*: Not this week$/)]),
      );
    } finally {
      await saveTransitionPolicy(db, DEFAULT_TRANSITION_POLICY, "system");
    }
  });
});
