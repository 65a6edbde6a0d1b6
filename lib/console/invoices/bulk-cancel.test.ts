import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SearchProvider, startSearchProvider } from "@/test/search-provider";

/*
 * Bulk cancel against a real HTTP provider: partial refusals and failures, "try again", a job taken over after
 * its instance stopped, bounded concurrency, an audit entry per invoice with the shared reason, a job that stops
 * when its person may no longer act, and one change per invoice however its ids were written.
 */
let provider: SearchProvider;
let lib: {
  db: import("@/lib/platform/db").Db;
  upstream: import("@/lib/console/upstream/client").Upstream;
  bulk: typeof import("./bulk-cancel");
  schema: typeof import("@/lib/console/schema");
};
const ALICE = { id: "user-bulk-alice", email: "alice@test.invalid", role: "support" as const };
const NONE = { cancelled: 0, refused: 0, failed: 0, duplicate: 0, not_run: 0, awaiting_approval: 0, waiting: 0 };

beforeAll(async () => {
  provider = await startSearchProvider();
  const { getDatabase } = await import("@/lib/platform/db");
  const { createUpstream } = await import("@/lib/console/upstream/client");
  lib = {
    db: await getDatabase(),
    upstream: createUpstream({ baseUrl: provider.url, apiKey: "sk_test_bulk", timeoutMs: 5_000 }),
    bulk: await import("./bulk-cancel"),
    schema: await import("@/lib/console/schema"),
  };
});
afterAll(() => provider.close());
beforeEach(async () => {
  provider.invoices.clear();
  provider.state.patchAnswer = null;
  provider.state.resolve = null;
  provider.state.beforeInvoice = null;
  provider.state.delayMs = 0;
  // A job reads its person's row before every batch: Alice exists, enabled, with support's role.
  const { users } = lib.schema;
  await lib.db
    .insert(users)
    .values({ id: ALICE.id, name: "Alice", email: ALICE.email, role: ALICE.role, banned: false })
    .onConflictDoUpdate({ target: users.id, set: { role: ALICE.role, banned: false } });
});

const refusal = { status: 422, body: { title: "Invoice is completed", detail: "A completed invoice cannot be cancelled." } };
const outage = { status: 503, body: { title: "Maintenance" } };

async function auditOf(id: string) {
  const { auditLog } = lib.schema;
  return lib.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.target, `invoice:${id}`), eq(auditLog.action, "invoice.status_change")));
}

describe("a bulk cancel", () => {
  it("cancels what it may, says which the provider refused and why, and which failed; 'try again' finishes those", async () => {
    for (let i = 1; i <= 6; i++)
      provider.insert({ invoice_id: `bulk-${i}`, order_id: `B-${i}`, status: i === 6 ? "cancelled" : "pending" });
    let outageOn = true;
    provider.state.patchAnswer = (id) => (id === "bulk-2" ? refusal : id === "bulk-3" && outageOn ? outage : null);
    provider.state.delayMs = 20;

    const job = await lib.bulk.createBulkCancel(
      lib.db,
      ALICE,
      ["bulk-1", "bulk-2", "bulk-3", "bulk-4", "bulk-5", "bulk-6", "nope"],
      "order voided",
    );
    await lib.bulk.runBulkJob(lib, job);

    // One invoice the console's index knows by its order id: the job names it so.
    const { searchInvoices } = await import("@/lib/console/schema");
    await lib.db
      .insert(searchInvoices)
      .values({ invoiceId: "bulk-1", orderId: "ORD-BULK-1" })
      .onConflictDoUpdate({ target: searchInvoices.invoiceId, set: { orderId: "ORD-BULK-1" } });
    const read = await lib.bulk.readBulkJob(lib.db, ALICE, job);
    expect(read?.counts).toEqual({ ...NONE, cancelled: 4, refused: 2, failed: 1 });
    expect(read?.finished_at).not.toBeNull();
    const byId = Object.fromEntries(read!.items.map((i) => [i.invoice_id, i]));
    expect(byId["bulk-2"]).toMatchObject({
      outcome: "refused",
      detail: expect.stringContaining("A completed invoice cannot be cancelled."),
    });
    expect(byId.nope.outcome).toBe("refused");
    expect(byId["bulk-3"].outcome).toBe("failed");
    expect(byId["bulk-6"]).toMatchObject({ outcome: "cancelled", detail: "It was already cancelled.", from_status: "cancelled" });
    expect(byId["bulk-1"]).toMatchObject({ outcome: "cancelled", detail: null, from_status: "pending", order_id: "ORD-BULK-1" });
    expect(byId.nope.order_id).toBeNull();
    expect(provider.invoices.get("bulk-1")?.status).toBe("cancelled");
    expect(provider.invoices.get("bulk-3")?.status).toBe("pending");
    // Each change went through one use case at a time per invoice, never more than the bound at once.
    expect(provider.maxInFlight()).toBeLessThanOrEqual(lib.bulk.BULK_CONCURRENCY);

    const [entry] = await auditOf("bulk-1");
    expect(entry.actorEmail).toBe(ALICE.email);
    expect(entry.detail).toMatchObject({ to: "cancelled", from: "pending", reason: "order voided", bulk_job: job, outcome: "changed" });

    outageOn = false;
    expect(await lib.bulk.retryFailed(lib.db, job, ALICE)).toBe(1);
    await lib.bulk.runBulkJob(lib, job);
    expect((await lib.bulk.readBulkJob(lib.db, ALICE, job))?.counts).toEqual({ ...NONE, cancelled: 5, refused: 2 });
    expect(provider.invoices.get("bulk-3")?.status).toBe("cancelled");
  });

  it("is taken over where it stopped once its holder's lease has run out, and left alone while it holds", async () => {
    for (let i = 1; i <= 5; i++) provider.insert({ invoice_id: `resume-${i}`, order_id: `R-${i}`, status: "pending" });
    const job = await lib.bulk.createBulkCancel(
      lib.db,
      ALICE,
      [1, 2, 3, 4, 5].map((i) => `resume-${i}`),
      "duplicate orders",
    );
    const { bulkJobs, bulkJobItems } = lib.schema;
    // An instance took the job, did the first invoice, then stopped (its lease runs for another minute).
    await lib.db
      .update(bulkJobs)
      .set({ leaseHolder: "gone", leaseUntil: new Date(Date.now() + 60_000) })
      .where(eq(bulkJobs.id, job));
    await lib.db
      .update(bulkJobItems)
      .set({ outcome: "cancelled" })
      .where(and(eq(bulkJobItems.jobId, job), eq(bulkJobItems.invoiceId, "resume-1")));
    await lib.bulk.runBulkJob(lib, job);
    expect((await lib.bulk.readBulkJob(lib.db, ALICE, job))?.counts.waiting).toBe(4);
    expect(provider.invoices.get("resume-2")?.status).toBe("pending");
    expect(await lib.bulk.unfinishedJobIds(lib.db)).not.toContain(job); // the sweep leaves it to its holder

    // The lease runs out: the next sweep (or start) takes over and finishes only what was left.
    await lib.db
      .update(bulkJobs)
      .set({ leaseUntil: new Date(Date.now() - 1) })
      .where(eq(bulkJobs.id, job));
    expect(await lib.bulk.unfinishedJobIds(lib.db)).toContain(job);
    await lib.bulk.runBulkJob(lib, job);
    const read = await lib.bulk.readBulkJob(lib.db, ALICE, job);
    expect(read?.counts).toEqual({ ...NONE, cancelled: 5 });
    expect(provider.invoices.get("resume-1")?.status).toBe("pending"); // done before the stop: not asked again
    expect(provider.invoices.get("resume-5")?.status).toBe("cancelled");
    expect(await lib.bulk.unfinishedJobIds(lib.db)).not.toContain(job);
  });

  it("is visible to whoever started it and to admins, to nobody else", async () => {
    const job = await lib.bulk.createBulkCancel(lib.db, ALICE, ["x"], "test");
    expect(await lib.bulk.readBulkJob(lib.db, ALICE, job)).not.toBeNull();
    expect(await lib.bulk.readBulkJob(lib.db, { id: "admin-1", role: "admin" }, job)).not.toBeNull();
    expect(await lib.bulk.readBulkJob(lib.db, { id: "bob", role: "support" }, job)).toBeNull();
    expect(await lib.bulk.readBulkJob(lib.db, ALICE, "not-a-uuid")).toBeNull();
    expect((await lib.bulk.listBulkJobs(lib.db, ALICE)).map((j) => j.id)).toContain(job);
  });

  it("refuses an id that cannot be one path segment ('.', '..'), naming it, recording nothing", async () => {
    const { bulkJobs } = lib.schema;
    const before = (await lib.db.select().from(bulkJobs)).length;
    const refused = lib.bulk.createBulkCancel(lib.db, ALICE, ["invoice_a", ".", " .. "], "r");
    await expect(refused).rejects.toMatchObject({
      status: 422,
      detail: expect.stringMatching(/^"\." and "\.\." cannot name an invoice: .* Remove them from the selection\.$/),
    });
    expect((await lib.db.select().from(bulkJobs)).length).toBe(before);
    // Dots within an id are the provider's business: one encoded segment, sent as it is.
    await expect(lib.bulk.createBulkCancel(lib.db, ALICE, ["...", "a.b", "a/.."], "r")).resolves.toBeTypeOf("string");
  });

  it("refuses an empty selection and one beyond the bound, recording nothing", async () => {
    await expect(lib.bulk.createBulkCancel(lib.db, ALICE, [" ", ""], "r")).rejects.toMatchObject({ status: 422 });
    const many = Array.from({ length: lib.bulk.BULK_MAX + 1 }, (_, i) => `many-${i}`);
    await expect(lib.bulk.createBulkCancel(lib.db, ALICE, many, "r")).rejects.toMatchObject({
      status: 422,
      detail: expect.stringContaining("at most 1,000"),
    });
  });
});

describe("a bulk job whose person may no longer act", () => {
  // Async, so the statement runs when called (a drizzle query runs only once awaited).
  const setAlice = async (fields: { banned?: boolean; role?: string }) => {
    await lib.db.update(lib.schema.users).set(fields).where(eq(lib.schema.users.id, ALICE.id));
  };
  const deleteAlice = async () => {
    await lib.db.delete(lib.schema.users).where(eq(lib.schema.users.id, ALICE.id));
  };
  const patched = () => provider.requests.filter((r) => r.startsWith("PATCH "));

  it.each([
    ["is disabled", () => setAlice({ banned: true }), `${ALICE.email} was disabled.`],
    ["becomes a viewer", () => setAlice({ role: "viewer" }), `${ALICE.email}'s role (viewer) may no longer change an invoice's status.`],
    ["is deleted", () => deleteAlice(), `${ALICE.email} no longer exists.`],
  ])(
    "stops when its person %s: what was sent before stays, nothing after; the rest is not run, and 'try again' leaves it so",
    async (_, change, why) => {
      for (let i = 1; i <= 10; i++) provider.insert({ invoice_id: `stop-${i}`, order_id: `S-${i}`, status: "pending" });
      provider.state.delayMs = 20;
      // The change lands while the first batch's first change is at the provider: of that batch, what was sent before
      // it stays sent; the others, and every later batch, are never sent.
      let changed: Promise<void> | null = null;
      provider.state.patchAnswer = () => {
        changed ??= change();
        return null;
      };
      const ids = Array.from({ length: 10 }, (_, i) => `stop-${i + 1}`);
      const job = await lib.bulk.createBulkCancel(lib.db, ALICE, ids, "order voided");
      const before = patched().length;
      await lib.bulk.runBulkJob(lib, job);
      await changed;

      const read = await lib.bulk.readBulkJob(lib.db, ALICE, job);
      const sent = patched().length - before;
      expect(sent).toBeGreaterThanOrEqual(1);
      expect(sent).toBeLessThanOrEqual(lib.bulk.BULK_CONCURRENCY);
      expect(read?.counts).toEqual({ ...NONE, cancelled: sent, not_run: 10 - sent });
      expect(read?.finished_at).not.toBeNull();
      expect(read?.items.at(-1)).toMatchObject({
        invoice_id: "stop-10",
        outcome: "not_run",
        detail: `Not run — ${why}`,
        from_status: null,
      });
      expect(provider.invoices.get("stop-10")?.status).toBe("pending");
      expect(await auditOf("stop-10")).toEqual([]);
      expect(await lib.bulk.unfinishedJobIds(lib.db)).not.toContain(job);

      // "Try again" is for what failed; what its person may not do stays not run, on a second run too.
      expect(await lib.bulk.retryFailed(lib.db, job, ALICE)).toBe(0);
      await lib.bulk.runBulkJob(lib, job);
      expect((await lib.bulk.readBulkJob(lib.db, ALICE, job))?.counts.not_run).toBe(10 - sent);
      expect(patched().length - before).toBe(sent);
    },
  );

  it("sends nothing more in its person's name once they are disabled, not even the invoices of the batch under way", async () => {
    for (let i = 1; i <= 6; i++) provider.insert({ invoice_id: `mid-${i}`, order_id: `M-${i}`, status: "pending" });
    provider.state.delayMs = 20;
    // Disabled while the batch's invoices are being read: each is checked again just before its change.
    let changed: Promise<void> | null = null;
    provider.state.beforeInvoice = () => {
      changed ??= setAlice({ banned: true });
    };
    const ids = Array.from({ length: 6 }, (_, i) => `mid-${i + 1}`);
    const job = await lib.bulk.createBulkCancel(lib.db, ALICE, ids, "order voided");
    const before = patched().length;
    await lib.bulk.runBulkJob(lib, job);
    await changed;
    expect(patched().length - before).toBe(0);
    const read = await lib.bulk.readBulkJob(lib.db, ALICE, job);
    expect(read?.counts).toEqual({ ...NONE, not_run: 6 });
    expect(read?.items[0]).toMatchObject({ outcome: "not_run", detail: `Not run — ${ALICE.email} was disabled. Nothing was sent.` });
    for (const id of ids) expect(await auditOf(id)).toEqual([]);
  });

  it("resumed after a restart or taken over, sends nothing once its person was disabled meanwhile", async () => {
    for (let i = 1; i <= 3; i++) provider.insert({ invoice_id: `later-${i}`, order_id: `L-${i}`, status: "pending" });
    const job = await lib.bulk.createBulkCancel(lib.db, ALICE, ["later-1", "later-2", "later-3"], "duplicate orders");
    const { bulkJobs } = lib.schema;
    // Its instance stopped holding it, and Alice was disabled before anyone took it over.
    await lib.db
      .update(bulkJobs)
      .set({ leaseHolder: "gone", leaseUntil: new Date(Date.now() - 1) })
      .where(eq(bulkJobs.id, job));
    await setAlice({ banned: true });
    const before = provider.requests.length;
    await lib.bulk.runBulkJob(lib, job);
    expect(provider.requests.length).toBe(before);
    const read = await lib.bulk.readBulkJob(lib.db, ALICE, job);
    expect(read?.counts).toEqual({ ...NONE, not_run: 3 });
    expect(read?.items.map((i) => i.detail)).toEqual(Array(3).fill(`Not run — ${ALICE.email} was disabled.`));
  });

  it("answers 'ok' with the role now while the person may (and the policy lets the role cancel), 'not ok' with the reason when not", async () => {
    const job = { createdBy: ALICE.id, createdByEmail: ALICE.email };
    expect(await lib.bulk.mayGoOn(lib.db, job)).toEqual({ ok: true, role: "support" });
    await setAlice({ role: "admin" });
    expect(await lib.bulk.mayGoOn(lib.db, job)).toEqual({ ok: true, role: "admin" });
    await setAlice({ role: "finance" });
    expect(await lib.bulk.mayGoOn(lib.db, job)).toEqual({
      ok: false,
      reason: `Only support and admin can cancel an invoice. ${ALICE.email} is finance now.`,
    });
  });
});

describe("a bulk job given one invoice under several ids", () => {
  const own = "invoice_0190a1d2-1111-7000-8000-00000000abcd";
  const bare = own.slice("invoice_".length);
  const patchesOf = (id: string) =>
    provider.requests.filter((r) => r.startsWith("PATCH ") && r.toLowerCase().endsWith(id.slice(-12).toLowerCase()));

  beforeEach(() => {
    // Like the sandbox: the bare UUID names the invoice too, and case does not matter.
    provider.state.resolve = (id) => {
      const named = `invoice_${id.toLowerCase().replace(/^invoice_/, "")}`;
      return provider.invoices.has(named) ? named : id;
    };
  });

  it("changes it once, in one batch at once or in a later one; the others say which id did it", async () => {
    provider.insert({ invoice_id: own, order_id: "D-1", status: "pending" });
    for (let i = 1; i <= 3; i++) provider.insert({ invoice_id: `other-${i}`, order_id: `O-${i}`, status: "pending" });
    provider.state.delayMs = 20;
    // The first batch holds three forms of it, running together; the next batch a fourth.
    const ids = [own, bare, own.toUpperCase(), "other-1", "other-2", "other-3", bare.toUpperCase()];
    const job = await lib.bulk.createBulkCancel(lib.db, ALICE, ids, "order voided");
    await lib.bulk.runBulkJob(lib, job);

    const read = await lib.bulk.readBulkJob(lib.db, ALICE, job);
    expect(read?.counts).toEqual({ ...NONE, cancelled: 4, duplicate: 3 });
    expect(patchesOf(own)).toHaveLength(1);
    expect(provider.invoices.get(own)?.status).toBe("cancelled");
    const first = read!.items.find((i) => [own, bare, own.toUpperCase()].includes(i.invoice_id) && i.outcome === "cancelled");
    expect(first).toMatchObject({ from_status: "pending", detail: null });
    const repeats = read!.items.filter((i) => i.outcome === "duplicate");
    expect(repeats.map((i) => i.detail)).toEqual(Array(3).fill(`Same invoice as ${first!.invoice_id} — done once.`));
    expect(repeats.map((i) => i.invoice_id)).toContain(bare.toUpperCase());
    // One audit entry, under the invoice's own id: a repeat sent nothing, so it has nothing to record.
    expect((await auditOf(own)).map((e) => (e.detail as { outcome: string }).outcome)).toEqual(["changed"]);
  });

  it("stays once after 'try again': the item that failed is tried again, its repeats are not", async () => {
    provider.insert({ invoice_id: own, order_id: "D-2", status: "pending" });
    let outage = true;
    provider.state.patchAnswer = () => (outage ? { status: 503, body: { title: "Maintenance" } } : null);
    const job = await lib.bulk.createBulkCancel(lib.db, ALICE, [own, bare], "order voided");
    await lib.bulk.runBulkJob(lib, job);
    expect((await lib.bulk.readBulkJob(lib.db, ALICE, job))?.counts).toEqual({ ...NONE, failed: 1, duplicate: 1 });

    outage = false;
    expect(await lib.bulk.retryFailed(lib.db, job, ALICE)).toBe(1);
    await lib.bulk.runBulkJob(lib, job);
    const read = await lib.bulk.readBulkJob(lib.db, ALICE, job);
    expect(read?.counts).toEqual({ ...NONE, cancelled: 1, duplicate: 1 });
    expect(provider.invoices.get(own)?.status).toBe("cancelled");
  });
});
