import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandboxOverHttp } from "@/test/sandbox-over-http";

/**
 * "Resend all failed in this view" against the sandbox over real HTTP, with a real receiver that fails until it
 * is fixed: the view's failed deliveries become one job, each is resent (and audited) and comes back delivered;
 * a job whose person may no longer resend stops, the rest not run.
 */
process.env.SANDBOX_WEBHOOK_RETRY_SCHEDULE = "50ms";
process.env.SANDBOX_CALLBACK_ALLOWLIST = "127.0.0.1";
process.env.SANDBOX_ENABLED = "true";

let sandbox: Awaited<ReturnType<typeof startSandboxOverHttp>>;
let receiver: Server;
let hookUrl = "";
let merchantKey = "";
let fixed = false;
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.url ?? "");
    req.resume();
    res.writeHead(fixed ? 200 : 503, { "content-type": "text/plain" }).end(fixed ? "ok" : "shop is down");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  sandbox = await startSandboxOverHttp(() => merchantKey);
  process.env.INVOICING_API_URL = sandbox.url;
  process.env.INVOICING_API_KEY = "sk_test_bulk_redeliver";
  // Opened (migrated and seeded) here, within the hook's time, rather than inside the first test's.
  await (await import("@/lib/sandbox")).getSandboxDb();
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});

/** A merchant of its own with `n` invoices whose test webhooks all end failed at the (still broken) receiver. */
async function failedDeliveries(n: number) {
  fixed = false;
  const { getDatabase } = await import("@/lib/platform/db");
  const { createTestMerchant } = await import("@/test/sandbox-fixtures");
  const created = new Date("2026-02-01T00:00:00Z");
  const merchant = await createTestMerchant(
    await getDatabase(),
    Array.from({ length: n }, () => ({ createdAt: created, status: "pending", callbackUrl: `${hookUrl}/${randomUUID()}` })),
  );
  merchantKey = merchant.key;
  for (const row of merchant.invoices) {
    const sent = await fetch(`${sandbox.url}/webhooks/simulate`, {
      method: "POST",
      body: JSON.stringify({ invoice_id: `invoice_${row.id}`, status: "completed" }),
    });
    expect(sent.status).toBe(200);
  }
  await vi.waitFor(
    async () => expect((await (await fetch(`${sandbox.url}/webhook-deliveries?state=failed`)).json()).pagination.total_records).toBe(n),
    { timeout: 10_000, interval: 50 },
  );
  return merchant.invoices.map((row) => `invoice_${row.id}`);
}

async function admin() {
  const { getDatabase } = await import("@/lib/platform/db");
  const { addUser } = await import("@/lib/console/auth/users");
  const email = `admin-${randomUUID()}@test.invalid`;
  const row = await addUser(await getDatabase(), { email, name: "Resender", role: "admin", password: "correct horse battery" }, "system");
  return { id: row.id, email, role: "admin" as const };
}

const failedView = { state: "failed" as const, page: 1, page_size: 100 };

describe("resending every failed delivery of a view", () => {
  it("one job resends each once, audited, and they come back delivered once the receiver is fixed", async () => {
    const invoices = await failedDeliveries(3);
    const { getDatabase } = await import("@/lib/platform/db");
    const { upstream } = await import("@/lib/console/upstream/client");
    const { startBulkRedeliver, runBulkRedeliver, readRedeliverJob } = await import("./bulk-redeliver");
    const { auditTrail } = await import("@/lib/console/audit");
    const db = await getDatabase();
    const person = await admin();

    fixed = true;
    const jobId = await startBulkRedeliver({ db, upstream: upstream() }, person, failedView);
    expect(await auditTrail(db, `bulk_job:${jobId}`)).toMatchObject([
      { action: "bulk_redeliver.started", actorEmail: person.email, detail: { count: 3 } },
    ]);
    await runBulkRedeliver({ db, upstream: upstream() }, jobId);

    const job = await readRedeliverJob(db, person, jobId);
    expect(job).toMatchObject({ total: 3, finished_at: expect.any(String), counts: { delivered: 3, waiting: 0 } });
    // What the browser follows it by reads it whole.
    const { redeliverJobSchema } = await import("@/lib/contract");
    expect(redeliverJobSchema.parse(JSON.parse(JSON.stringify(job)))).toEqual(job);
    expect(job!.items.map((i) => i.invoice_id).sort()).toEqual([...invoices].sort());
    for (const item of job!.items) expect(item.detail).toMatch(/^Resent msg_.*: the receiver answered HTTP 200\.$/);
    for (const invoice of invoices) {
      expect((await auditTrail(db, `invoice:${invoice}`)).filter((e) => e.action === "webhook.redeliver")).toMatchObject([
        { actorEmail: person.email, detail: { outcome: "sent" } },
      ]);
    }
    const after = await (await fetch(`${sandbox.url}/webhook-deliveries?state=failed`)).json();
    expect(after.items).toEqual([]);

    // Finished: running it again sends nothing more.
    const before = received.length;
    await runBulkRedeliver({ db, upstream: upstream() }, jobId);
    expect(received).toHaveLength(before);
  });

  it("a view without failed deliveries starts nothing: a 422 naming the state", async () => {
    await failedDeliveries(1);
    const { getDatabase } = await import("@/lib/platform/db");
    const { upstream } = await import("@/lib/console/upstream/client");
    const { startBulkRedeliver } = await import("./bulk-redeliver");
    const person = await admin();
    await expect(
      startBulkRedeliver({ db: await getDatabase(), upstream: upstream() }, person, {
        ...failedView,
        created_after: "2099-01-01T00:00:00.000Z",
      }),
    ).rejects.toMatchObject({ status: 422, errors: [{ pointer: "/state", code: "none_failed" }] });
  });

  it("stops when its person may no longer resend: what is left is not run, and nothing is sent", async () => {
    await failedDeliveries(2);
    const { getDatabase } = await import("@/lib/platform/db");
    const { upstream } = await import("@/lib/console/upstream/client");
    const { users } = await import("@/lib/console/schema");
    const { startBulkRedeliver, runBulkRedeliver, readRedeliverJob } = await import("./bulk-redeliver");
    const db = await getDatabase();
    const person = await admin();
    const jobId = await startBulkRedeliver({ db, upstream: upstream() }, person, failedView);
    await db.update(users).set({ role: "viewer" }).where(eq(users.id, person.id));
    const before = received.length;
    await runBulkRedeliver({ db, upstream: upstream() }, jobId);
    expect(received).toHaveLength(before);
    const job = await readRedeliverJob(db, { id: person.id, role: "viewer" }, jobId);
    expect(job).toMatchObject({ counts: { not_run: 2 }, finished_at: expect.any(String) });
    expect(job!.items[0].detail).toContain("may no longer resend webhooks");
  });
});

describe("a view's Invoice field", () => {
  it("takes an order id or the short id a table shows, found in the index, and names one no invoice has in its own words", async () => {
    const [invoiceId] = await failedDeliveries(1);
    const { getDatabase } = await import("@/lib/platform/db");
    const { upstream } = await import("@/lib/console/upstream/client");
    const { indexInvoices } = await import("@/lib/console/mirror/store");
    const { deliveryQueryOf, inFieldWords } = await import("./deliveries");
    const { shortInvoiceId } = await import("@/lib/contract/format");
    const db = await getDatabase();
    const invoice = await upstream().getInvoice(invoiceId);
    await indexInvoices(db, [invoice]);
    const view = { state: "failed" as const, invoice: null, from: null, to: null, page: 1 };

    for (const typed of [invoiceId, shortInvoiceId(invoiceId), invoice.order_id!]) {
      const { invoice: found, query } = await deliveryQueryOf(db, { ...view, invoice: typed }, "UTC");
      expect(found, typed).toBe(invoiceId);
      const page = await upstream().listAllWebhookDeliveries(query.data!);
      expect(page!.items.map((d) => d.invoice_id)).toEqual([invoiceId]);
    }

    const typed = "ORD-NO-SUCH-ONE";
    const { invoice: unknown, query } = await deliveryQueryOf(db, { ...view, invoice: typed }, "UTC");
    expect(unknown).toBe(typed);
    const refusal = await upstream()
      .listAllWebhookDeliveries(query.data!)
      .then(
        () => null,
        (error) => error,
      );
    expect(inFieldWords(refusal, typed)).toMatchObject({
      status: 404,
      detail: expect.stringContaining("No invoice has “ORD-NO-SUCH-ONE” as its invoice id or order id."),
    });
    // Any other failure is said as it was.
    expect(inFieldWords(refusal, null)).toBe(refusal);
  });
});
