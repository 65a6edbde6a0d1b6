import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "@/lib/console/auth/session";
import { auditLog, bulkJobItems, bulkJobs } from "@/lib/console/schema";
import { ACTIVITY_KINDS, type ActivityKind } from "@/lib/contract/activity";
import { can, type Permission, type Role } from "@/lib/contract/roles";
import { DEFAULT_TRANSITION_POLICY } from "@/lib/contract/transition-policy";
import { type Db, getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { answeredMethods } from "@/lib/platform/http-methods";
import { createTestMerchant } from "@/test/sandbox-fixtures";
import { startSandboxOverHttp } from "@/test/sandbox-over-http";
import { softwareAuthenticator } from "@/test/software-authenticator";

/**
 * Everything that changes something through the console leaves an entry in its audit log. Every server action
 * and every route method other than a read is found from the file tree, as the access tables find them
 * (lib/console/bff/action-access.test.ts, route-access.test.ts); a read that is itself an event (an export) is
 * named here. The table says which kind of entry each one writes when it succeeds, or why it writes none, and
 * a new one fails here until someone decides. Each entry with a kind is then run for real, by a person whose
 * role may, against the sandbox over HTTP, and must leave an entry of that kind in that person's name.
 */
type Person = { email: string; cookie: string; user: SessionUser };
type Audited = { kind: ActivityKind; as: Role; run: (person: Person, id: string) => Promise<unknown> };
type Unaudited = { kind: null; why: string };

/** GET routes that are recorded events themselves: who exported which view, how many rows. */
const RECORDED_READS = ["GET app/api/invoices/export/route.ts", "GET app/api/activity/export/route.ts"];

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "violet staple orbit ninety";

const TABLE: Record<string, Audited | Unaudited> = {
  // Signing in and out.
  "lib/console/auth/actions.ts#signIn": {
    kind: "sign_in",
    as: "viewer",
    run: (p, id) => act(id, null, { email: p.email, password: PASSWORD }),
  },
  "lib/console/auth/actions.ts#signInCode": {
    kind: "sign_in",
    as: "viewer",
    run: async (p, id) => {
      const codeAt = await withAuthenticatorApp(p);
      const { getAuth } = await import("@/lib/console/auth/server");
      const pending = cookieOf(await (await getAuth()).api.signInEmail({ body: { email: p.email, password: PASSWORD }, asResponse: true }));
      return act(id, pending, { code: await codeAt(1) });
    },
  },
  "lib/console/auth/actions.ts#signOut": {
    kind: "sign_out",
    as: "viewer",
    run: async (p, id) => {
      expect(await act(id, p.cookie, {})).toMatchObject({ redirect: expect.stringContaining("/login?signed_out=1") });
      const { sessionUser } = await import("@/lib/console/auth/session");
      expect(await sessionUser(new Headers({ cookie: p.cookie }))).toBeNull();
    },
  },
  "lib/console/auth/passkey-actions.ts#passkeySignInOptionsAction": { kind: null, why: "a challenge for the authenticator to sign" },
  "lib/console/auth/passkey-actions.ts#passkeySignInAction": {
    kind: "sign_in",
    as: "viewer",
    run: async (p, id) => {
      const authenticator = await withPasskey(p);
      const { challengeId, options } = (await act("lib/console/auth/passkey-actions.ts#passkeySignInOptionsAction", null, {})) as {
        challengeId: string;
        options: { challenge: string };
      };
      return act(id, null, { challengeId, response: authenticator.authenticate(options) });
    },
  },
  "lib/console/auth/sign-in-again.ts#signInChoicesAction": { kind: null, why: "reads which demo accounts the dialog offers" },
  "lib/console/auth/sign-in-again.ts#sessionStateAction": { kind: null, why: "reads whether the request still has a session" },
  "POST app/api/session/sign-in/route.ts": {
    kind: "sign_in",
    as: "viewer",
    run: async (p, id) =>
      expect(await (await route(id, null, "/api/session/sign-in", { email: p.email, password: PASSWORD })).json()).toEqual({
        ok: true,
        email: p.email,
      }),
  },

  // A person's second factors.
  "lib/console/auth/two-factor-actions.ts#startTwoFactorAction": {
    kind: null,
    why: "a secret waiting for its first code: nothing is in force until confirmed (two_factor.added)",
  },
  "lib/console/auth/two-factor-actions.ts#confirmTwoFactorAction": {
    kind: "two_factor.added",
    as: "support",
    run: async (p, id) => {
      await act("lib/console/auth/two-factor-actions.ts#startTwoFactorAction", p.cookie, { password: PASSWORD });
      const codeAt = await appCodes(p);
      expect(await act(id, p.cookie, { code: await codeAt(0) })).toMatchObject({ recoveryCodes: expect.any(Array) });
    },
  },
  "lib/console/auth/two-factor-actions.ts#removeTwoFactorAction": {
    kind: "two_factor.removed",
    as: "viewer",
    run: async (p, id) => act(id, p.cookie, { code: await (await withAuthenticatorApp(p))(1) }),
  },
  "lib/console/auth/passkey-actions.ts#passkeyRegistrationAction": {
    kind: null,
    why: "the password checked and options for the authenticator; the passkey is added by addPasskeyAction",
  },
  "lib/console/auth/passkey-actions.ts#addPasskeyAction": {
    kind: "two_factor.added",
    as: "finance",
    run: async (p, id) => {
      const authenticator = softwareAuthenticator(env().publicUrl);
      const { challengeId, options } = (await act("lib/console/auth/passkey-actions.ts#passkeyRegistrationAction", p.cookie, {
        password: PASSWORD,
        name: "Laptop",
      })) as { challengeId: string; options: { challenge: string } };
      return act(id, p.cookie, { challengeId, response: authenticator.register(options), name: "Laptop" });
    },
  },
  "lib/console/auth/passkey-actions.ts#removePasskeyAction": {
    kind: "two_factor.removed",
    as: "viewer",
    run: async (p, id) => {
      await withPasskey(p);
      const { listPasskeys } = await import("@/lib/console/auth/passkeys");
      const [passkey] = await listPasskeys(db, p.user.id);
      return act(id, p.cookie, { id: passkey.id, password: PASSWORD });
    },
  },

  // Sessions.
  "lib/console/auth/session-actions.ts#endOwnSessionAction": {
    kind: "session.ended",
    as: "viewer",
    run: async (p, id) => act(id, p.cookie, { session: (await signedIn(p.email)).sessionId }),
  },
  "lib/console/auth/password-actions.ts#changePasswordAction": {
    kind: "user.password_changed",
    as: "viewer",
    run: async (p, id) => {
      const answer = await act(id, p.cookie, { current_password: PASSWORD, password: NEW_PASSWORD, password_again: NEW_PASSWORD });
      expect(answer).toMatchObject({ ok: expect.stringMatching(/^Your password is changed\./) });
    },
  },
  "lib/console/auth/session-actions.ts#endOtherSessionsAction": {
    kind: "session.ended_others",
    as: "viewer",
    run: async (p, id) => {
      await signedIn(p.email);
      expect(await act(id, p.cookie, {})).toMatchObject({ ok: "Signed out of 1 other session." });
    },
  },
  "lib/console/auth/session-actions.ts#endUserSessionAction": {
    kind: "session.ended",
    as: "admin",
    run: async (p, id) => act(id, p.cookie, { session: (await person("viewer")).user.sessionId }),
  },

  // People and roles.
  "lib/console/users/actions.ts#addUserAction": {
    kind: "user.created",
    as: "admin",
    run: (p, id) => act(id, p.cookie, { email: `added-${randomUUID()}@audit.test`, name: "Ada", role: "viewer" }),
  },
  "lib/console/users/actions.ts#issueResetLinkAction": {
    kind: "user.reset_issued",
    as: "admin",
    run: async (p, id) => act(id, p.cookie, { email: await someone() }),
  },
  "lib/console/users/actions.ts#setRoleAction": {
    kind: "user.role_changed",
    as: "admin",
    run: async (p, id) => act(id, p.cookie, { email: await someone(), role: "support" }),
  },
  "lib/console/users/actions.ts#setAccessAction": {
    kind: "user.disabled",
    as: "admin",
    run: async (p, id) => act(id, p.cookie, { email: await someone(), disabled: "true" }),
  },
  "lib/console/auth/link-actions.ts#acceptInvitationAction": {
    kind: "user.invitation_accepted",
    as: "viewer",
    run: async (p, id) => act(id, null, { token: await linkFor(p, "invite"), password: NEW_PASSWORD, password_again: NEW_PASSWORD }),
  },
  "lib/console/auth/link-actions.ts#resetPasswordAction": {
    kind: "user.password_reset",
    as: "viewer",
    run: async (p, id) => act(id, null, { token: await linkFor(p, "reset"), password: NEW_PASSWORD, password_again: NEW_PASSWORD }),
  },

  // Settings.
  "lib/console/users/actions.ts#setTimeZoneAction": {
    kind: "user.time_zone_changed",
    as: "viewer",
    run: (p, id) => act(id, p.cookie, { time_zone: "Europe/Berlin" }),
  },
  // No role ticked: nobody needs a second factor, which keeps every later run here signed in.
  "lib/console/users/actions.ts#setTwoFactorRequirementAction": {
    kind: "two_factor.requirement_changed",
    as: "admin",
    run: (p, id) => act(id, p.cookie, {}),
  },
  "lib/console/approvals/actions.ts#savePolicyAction": {
    kind: "policy.changed",
    as: "admin",
    run: (p, id) => act(id, p.cookie, policyFields()),
  },

  // Saved views.
  "lib/console/saved-views/actions.ts#saveViewAction": {
    kind: "saved_view.created",
    as: "viewer",
    run: (p, id) => act(id, p.cookie, { name: "Waiting", query: "status=pending,paid_partial", scope: "mine" }),
  },
  "lib/console/saved-views/actions.ts#renameViewAction": {
    kind: "saved_view.renamed",
    as: "viewer",
    run: async (p, id) => {
      const { saveView } = await import("@/lib/console/saved-views/store");
      const view = await saveView(db, p.user, { name: "To rename", query: "status=expired", scope: "mine" });
      expect(await act(id, p.cookie, { id: view.id, name: "Renamed" })).toMatchObject({ ok: "“To rename” is now “Renamed”." });
    },
  },
  "lib/console/saved-views/actions.ts#removeViewAction": {
    kind: "saved_view.removed",
    as: "viewer",
    run: async (p, id) => {
      const { saveView } = await import("@/lib/console/saved-views/store");
      const view = await saveView(db, p.user, { name: "Waiting", query: "status=pending", scope: "team" });
      expect(await act(id, p.cookie, { id: view.id })).toMatchObject({ ok: "“Waiting” is removed." });
    },
  },

  // Status changes: one, many, and approvals.
  "lib/console/invoices/actions.ts#changeStatusAction": {
    kind: "invoice.status_change",
    as: "support",
    run: async (p, id) =>
      expect(await act(id, p.cookie, { invoice_id: nextInvoice(), status: "cancelled", reason: "Customer asked" })).toMatchObject({
        status: "cancelled",
      }),
  },
  "lib/console/invoices/actions.ts#changeStatusFormAction": {
    kind: "invoice.status_change",
    as: "admin",
    run: async (p, id) =>
      expect(await act(id, p.cookie, { invoice_id: nextInvoice(), status: "expired", reason: "Never paid" })).toMatchObject({
        redirect: expect.stringContaining("?changed=expired"),
      }),
  },
  "PATCH app/api/invoices/[id]/route.ts": {
    kind: "invoice.status_change",
    as: "support",
    run: async (p, id) => {
      const invoice = nextInvoice();
      const answer = await route(id, p, `/api/invoices/${invoice}`, { status: "cancelled", reason: "Customer asked" }, { id: invoice });
      expect(await answer.json()).toMatchObject({ invoice_id: invoice, status: "cancelled" });
    },
  },
  "lib/console/invoices/actions.ts#previewBulkCancelAction": { kind: null, why: "a preview: what a view's invoices have received" },
  "lib/console/invoices/actions.ts#startBulkCancelAction": {
    kind: "bulk_cancel.started",
    as: "support",
    run: async (p, id) => {
      const ids = [nextInvoice(), nextInvoice()];
      const { jobId } = (await act(id, p.cookie, { ids: ids.join(","), reason: "Shop closed" })) as { jobId: string };
      // Each invoice's change is its own entry, in the same person's name, as the job reaches it.
      expect(await finished(p, jobId)).toMatchObject({ cancelled: 2 });
      expect(await entries("invoice.status_change", p.email)).toBe(2);
    },
  },
  "lib/console/invoices/actions.ts#retryBulkCancelAction": {
    kind: "bulk_cancel.retried",
    as: "admin",
    run: async (p, id) => {
      const { createBulkCancel } = await import("@/lib/console/invoices/bulk-cancel");
      const job = await createBulkCancel(db, p.user, [nextInvoice()], "Shop closed");
      // As a run the provider did not answer leaves it: failed, and the job finished.
      await db.update(bulkJobItems).set({ outcome: "failed", detail: "No answer" }).where(eq(bulkJobItems.jobId, job));
      await db.update(bulkJobs).set({ finishedAt: new Date() }).where(eq(bulkJobs.id, job));
      expect(await act(id, p.cookie, { job })).toMatchObject({ ok: "Trying 1 again…" });
      expect(await finished(p, job)).toMatchObject({ cancelled: 1 });
    },
  },
  "lib/console/approvals/actions.ts#decideApprovalAction": {
    kind: "approval.approved",
    as: "finance",
    run: async (p, id) => {
      const approval = await pendingApproval(requester);
      expect(await act(id, p.cookie, { id: approval, decision: "approve", reason: "Checked" })).toMatchObject({
        redirect: expect.stringContaining(`/approvals?done=${approval}`),
      });
    },
  },
  "POST app/api/approvals/[id]/approve/route.ts": {
    kind: "approval.approved",
    as: "admin",
    run: async (p, id) => {
      const approval = await pendingApproval(requester);
      const answer = await route(id, p, `/api/approvals/${approval}/approve`, { reason: "Checked" }, { id: approval });
      expect(await answer.json()).toMatchObject({ approval: { state: "approved" } });
    },
  },
  "POST app/api/approvals/[id]/reject/route.ts": {
    kind: "approval.rejected",
    as: "finance",
    run: async (p, id) => {
      const approval = await pendingApproval(requester);
      const answer = await route(id, p, `/api/approvals/${approval}/reject`, { reason: "Not paid" }, { id: approval });
      expect(await answer.json()).toMatchObject({ approval: { state: "rejected" } });
    },
  },
  "POST app/api/approvals/[id]/withdraw/route.ts": {
    kind: "approval.withdrawn",
    as: "support",
    run: async (p, id) => {
      const approval = await pendingApproval(p.user);
      const answer = await route(id, p, `/api/approvals/${approval}/withdraw`, { reason: "Asked by mistake" }, { id: approval });
      expect(await answer.json()).toMatchObject({ approval: { state: "withdrawn" } });
    },
  },

  // Archive entries (the CSV import posts each row to POST /api/archived).
  "lib/console/invoices/actions.ts#recordArchivedAction": {
    kind: "invoice.archive",
    as: "finance",
    run: async (p, id) =>
      expect(await act(id, p.cookie, { request: JSON.stringify({ order_id: order(), currency: "BTC", fiat_amount: 49.9 }) })).toMatchObject(
        {
          invoice: { invoice_id: expect.any(String) },
        },
      ),
  },
  "lib/console/invoices/actions.ts#recordArchivedFormAction": {
    kind: "invoice.archive",
    as: "admin",
    run: async (p, id) =>
      expect(await act(id, p.cookie, { order_id: order(), currency: "ETH", amount_in: "fiat", amount: "12.5" })).toMatchObject({
        redirect: expect.stringContaining("/archive?recorded="),
      }),
  },
  "POST app/api/archived/route.ts": {
    kind: "invoice.archive",
    as: "finance",
    run: (p, id) => route(id, p, "/api/archived", { order_id: order(), currency: "BTC", fiat_amount: 10 }),
  },

  // Exports: which view, how many rows.
  "GET app/api/invoices/export/route.ts": {
    kind: "invoices.export",
    as: "viewer",
    run: async (p, id) => expect(await (await route(id, p, "/api/invoices/export?format=csv&status=new")).text()).toContain("invoice_id"),
  },
  "GET app/api/activity/export/route.ts": {
    kind: "activity.export",
    as: "finance",
    run: async (p, id) =>
      expect(await (await route(id, p, "/api/activity/export?format=json&action=sign_in")).json()).toMatchObject({
        items: expect.any(Array),
      }),
  },

  // Webhooks.
  "lib/console/webhooks/actions.ts#simulateWebhookAction": {
    kind: "webhook.simulate",
    as: "admin",
    run: async (p, id) =>
      expect(await act(id, p.cookie, { invoice_id: hooked, status: "completed" })).toMatchObject({ result: { status: "delivered" } }),
  },
  "POST app/api/webhooks/simulate/route.ts": {
    kind: "webhook.simulate",
    as: "admin",
    run: async (p, id) =>
      expect(await (await route(id, p, "/api/webhooks/simulate", { invoice_id: hooked, status: "expired" })).json()).toMatchObject({
        status: "delivered",
      }),
  },
  "lib/console/webhooks/actions.ts#redeliverWebhookAction": {
    kind: "webhook.redeliver",
    as: "admin",
    run: async (p, id) =>
      expect(await act(id, p.cookie, { webhook_id: await aDelivery(), invoice_id: hooked })).toMatchObject({
        ok: expect.stringContaining("HTTP 200"),
      }),
  },
  "lib/console/webhooks/actions.ts#startBulkRedeliverAction": {
    kind: "bulk_redeliver.started",
    as: "admin",
    run: async (p, id) => {
      // A callback URL on a private address is refused at once: a delivery that failed, to resend.
      const sent = await fetch(`${sandbox.url}/webhooks/simulate`, {
        method: "POST",
        body: JSON.stringify({ invoice_id: unreachable, status: "completed" }),
      });
      expect(await sent.json()).toMatchObject({ status: "failed" });
      expect(await act(id, p.cookie, { invoice: unreachable })).toMatchObject({ redirect: expect.stringContaining("job=") });
    },
  },
  "POST app/api/webhook-deliveries/[id]/redeliver/route.ts": {
    kind: "webhook.redeliver",
    as: "admin",
    run: async (p, id) => {
      const webhookId = await aDelivery();
      const answer = await route(id, p, `/api/webhook-deliveries/${webhookId}/redeliver`, undefined, { id: webhookId }, 202);
      expect(await answer.json()).toMatchObject({ webhook_id: webhookId, state: "delivered" });
    },
  },
  "POST app/api/webhook-inbox/route.ts": {
    kind: null,
    why: "a provider's delivery, with no person behind it: the inbox itself is its record",
  },

  // The catch-all answers every method with a 404.
  ...Object.fromEntries(
    ["POST", "PUT", "PATCH", "DELETE"].map((method) => [
      `${method} app/api/[...path]/route.ts`,
      { kind: null, why: "no such endpoint: a 404" },
    ]),
  ),
};

const root = path.resolve(import.meta.dirname, "../../..");
const sourceFiles = (dir: string) =>
  (readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
const isServerActionModule = (file: string) => /^\s*["']use server["']/.test(readFileSync(path.join(root, file), "utf8"));
const routeFiles = sourceFiles("app/api").filter((f) => path.posix.basename(f) === "route.ts");

// Server actions read the request through next/headers; here each call names the cookie it is made with.
let requestCookie = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers(requestCookie ? { cookie: requestCookie } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

let db: Db;
let sandbox: Awaited<ReturnType<typeof startSandboxOverHttp>>;
let merchantKey = "";
let invoices: string[] = [];
/** An invoice whose callback URL answers, for test webhooks. */
let hooked = "";
/** An invoice whose callback URL is refused (a private address), so its webhooks fail. */
let unreachable = "";
/** Someone else who asked for changes, for approvers to decide. */
let requester: SessionUser;

beforeAll(async () => {
  sandbox = await startSandboxOverHttp(() => merchantKey);
  process.env.INVOICING_API_URL = sandbox.url;
  process.env.INVOICING_API_KEY = "sk_test_audit_coverage";
  // The sandbox is served here beside a configured upstream (its own route handlers, behind the stand-in).
  process.env.SANDBOX_ENABLED = "true";
  process.env.SANDBOX_CALLBACK_ALLOWLIST = "127.0.0.1";
  db = await getDatabase();
  const created = new Date("2026-01-01T00:00:00Z");
  const merchant = await createTestMerchant(db, [
    ...Array.from({ length: 16 }, () => ({ createdAt: created, status: "new" })),
    { createdAt: created, status: "pending", callbackUrl: "http://10.255.255.1/hook" },
    { createdAt: created, status: "pending", callbackUrl: `${sandbox.hooksUrl}/audit` },
  ]);
  merchantKey = merchant.key;
  invoices = merchant.invoices.slice(0, -2).map((row) => `invoice_${row.id}`);
  unreachable = `invoice_${merchant.invoices.at(-2)!.id}`;
  hooked = `invoice_${merchant.invoices.at(-1)!.id}`;
  requester = (await person("support")).user;
});

afterAll(async () => {
  await sandbox.close();
});

describe("the audit coverage table", () => {
  it("lists every server action and every route method that may change something, and nothing else", async () => {
    const found: string[] = [];
    for (const file of sourceFiles("lib").filter(isServerActionModule)) {
      const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, unknown>;
      for (const name of Object.keys(module)) found.push(`${file}#${name}`);
    }
    for (const file of routeFiles) {
      const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, unknown>;
      for (const method of answeredMethods(module)) {
        const id = `${method} ${file}`;
        if (method !== "GET" || RECORDED_READS.includes(id)) found.push(id);
      }
    }
    expect(found.sort()).toEqual(Object.keys(TABLE).sort());
    // Both reads named above are among them: a recorded export that moved would fail this rather than vanish.
    for (const id of RECORDED_READS) expect(found).toContain(id);
  });

  const audited = Object.entries(TABLE).flatMap(([id, entry]) => (entry.kind ? [{ id, ...entry }] : []));

  it.each(audited)("$id writes $kind as $as", async ({ id, kind, as, run }) => {
    expect(Object.keys(ACTIVITY_KINDS)).toContain(kind);
    if (id.includes("#")) {
      // The role named may run it (an action knows its own access).
      const { access } = (await load(id)) as unknown as { access: Permission | "public" | "signed-in" | "second-factor-setup" };
      expect(
        ["public", "signed-in", "second-factor-setup"].includes(access) || can(as, access as Permission),
        `${as} may not run ${id}`,
      ).toBe(true);
    }
    const p = await person(as);
    const before = await entries(kind, p.email);
    await run(p, id);
    expect(await entries(kind, p.email), `${id} wrote no ${kind} entry by ${as}`).toBeGreaterThan(before);
  });
});

describe("a refused change", () => {
  it("is recorded from an action, with the permission it lacked", async () => {
    const p = await person("viewer");
    const invoice = nextInvoice();
    const answer = await load("lib/console/invoices/actions.ts#changeStatusAction").then((action) =>
      action(form(p.cookie, { invoice_id: invoice, status: "cancelled", reason: "Viewer tried" })),
    );
    expect(answer).toMatchObject({ error: expect.stringContaining("Needs the invoices:change_status permission") });
    expect(await refusals(p.email, invoice)).toEqual([
      expect.objectContaining({ outcome: "refused", permission: "invoices:change_status", role: "viewer", to: "cancelled", from: "new" }),
    ]);
  });

  it("is recorded from a route, with the permission it lacked", async () => {
    const p = await person("viewer");
    const invoice = nextInvoice();
    const answer = await route(
      "PATCH app/api/invoices/[id]/route.ts",
      p,
      `/api/invoices/${invoice}`,
      { status: "expired", reason: "Viewer tried" },
      { id: invoice },
      403,
    );
    expect(await answer.json()).toMatchObject({ code: "forbidden" });
    expect(await refusals(p.email, invoice)).toEqual([
      expect.objectContaining({ outcome: "refused", permission: "invoices:change_status", role: "viewer", to: "expired", from: "new" }),
    ]);
  });

  it("includes a failed sign-in, filed under the account it named", async () => {
    const p = await person("viewer");
    const answer = await load("lib/console/auth/actions.ts#signIn").then((action) =>
      action(form(null, { email: p.email, password: "not the password" })),
    );
    expect(answer).toMatchObject({ error: expect.stringContaining("do not match") });
    const rows = await db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.action, "sign_in.failed"), eq(auditLog.target, `user:${p.email}`)));
    expect(rows.map((r) => r.detail)).toEqual([expect.objectContaining({ reason: "password" })]);
  });
});

/** How many entries of `kind` this person made whose outcome, when they say, is a change made. */
async function entries(kind: string, email: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, kind),
        eq(auditLog.actorEmail, email),
        sql`coalesce(${auditLog.detail}->>'outcome', '') not in ('refused', 'failed', 'unknown')`,
      ),
    );
  return row.n;
}

async function refusals(email: string, invoice: string) {
  const rows = await db
    .select({ detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.actorEmail, email), eq(auditLog.action, "invoice.status_change"), eq(auditLog.target, `invoice:${invoice}`)));
  return rows.map((r) => r.detail);
}

type Action = ((form: FormData) => Promise<unknown>) & { access: string };
async function load(id: string): Promise<Action> {
  const [file, name] = id.split("#");
  const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, Action>;
  return module[name];
}

function form(cookie: string | null, fields: Record<string, string>): FormData {
  requestCookie = cookie ?? "";
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

/**
 * Runs a server action with `cookie` (null: nobody signed in) and answers what it answered, which must not be a
 * failure; a redirect is an answer too (`{ redirect }`), but never to sign in.
 */
async function act(id: string, cookie: string | null, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const action = await load(id);
  try {
    const answer = ((await action(form(cookie, fields))) ?? {}) as Record<string, unknown>;
    expect({ error: answer.error, problem: answer.problem }, id).toEqual({ error: undefined, problem: undefined });
    return answer;
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT")) throw error;
    expect(digest, id).not.toMatch(/\/login\?next=/);
    return { redirect: digest };
  }
}

/** A delivery of the hooked invoice to resend: a test webhook sent straight to the sandbox, then read from its log. */
async function aDelivery(): Promise<string> {
  const sent = await fetch(`${sandbox.url}/webhooks/simulate`, {
    method: "POST",
    body: JSON.stringify({ invoice_id: hooked, status: "completed" }),
  });
  expect(sent.status).toBe(200);
  const log = await (await fetch(`${sandbox.url}/webhook-deliveries?invoice_id=${hooked}`)).json();
  return log.items[0].webhook_id;
}

/** Calls a route handler as `p` (null: nobody) and checks it answered `status` (a success unless told). */
async function route(
  id: string,
  p: Person | null,
  url: string,
  body?: unknown,
  params: Record<string, string> = {},
  status?: number,
): Promise<Response> {
  const [method, file] = id.split(" ");
  const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<
    string,
    (request: Request, context: { params: Promise<unknown> }) => Promise<Response>
  >;
  const request = new Request(`http://console.test${url}`, {
    method,
    headers: { origin: "http://console.test", ...(p ? { cookie: p.cookie } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = await module[method](request, { params: Promise.resolve(params) });
  if (status === undefined) expect(answer.status, `${id}: ${await answer.clone().text()}`).toBeLessThan(300);
  else expect(answer.status).toBe(status);
  return answer;
}

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** A new session of the person with this email (another browser). */
async function signedIn(email: string): Promise<SessionUser & { cookie: string }> {
  const [{ getAuth }, { sessionUser }] = await Promise.all([import("@/lib/console/auth/server"), import("@/lib/console/auth/session")]);
  const cookie = cookieOf(await (await getAuth()).api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true }));
  const user = await sessionUser(new Headers({ cookie }));
  if (!user) throw new Error(`${email} could not sign in`);
  return { ...user, cookie };
}

/** A new person with `role`, signed in. */
async function person(role: Role): Promise<Person> {
  const { addUser } = await import("@/lib/console/auth/users");
  const email = `${role}-${randomUUID()}@audit.test`;
  await addUser(db, { email, name: `Audit ${role}`, role, password: PASSWORD }, "system");
  const { cookie, ...user } = await signedIn(email);
  return { email, cookie, user };
}

/** Someone for an admin to act on: added without a password, so nobody signs in as them. */
async function someone(): Promise<string> {
  const { addUser } = await import("@/lib/console/auth/users");
  return (await addUser(db, { email: `target-${randomUUID()}@audit.test`, name: "Target", role: "viewer" }, "system")).email;
}

/** An invitation or reset link's token for the person, as an admin would hand it out. */
async function linkFor(p: Person, kind: "invite" | "reset"): Promise<string> {
  const { issueLink } = await import("@/lib/console/auth/account-links");
  const { url } = await issueLink(db, { kind, userId: p.user.id, actor: "system", address: "10.0.0.1" });
  return url.split("/").at(-1)!;
}

/** The person's authenticator app, waiting for its first code: its codes, `offset` steps of 30 s from now. */
async function appCodes(p: Person): Promise<(offset: number) => Promise<string>> {
  const { enrolment } = await import("@/lib/console/auth/two-factor");
  const pending = await enrolment(db, p.user);
  if (pending.state !== "pending") throw new Error("no authenticator app waiting for its first code");
  const otp = createOTP(new TextDecoder().decode(base32.decode(new URL(pending.uri).searchParams.get("secret")!)));
  return (offset) => otp.hotp(Math.floor(Date.now() / 30_000) + offset);
}

/** The person with an authenticator app set up (its first code spent); answers its codes. */
async function withAuthenticatorApp(p: Person): Promise<(offset: number) => Promise<string>> {
  const { startEnrolment, confirmEnrolment } = await import("@/lib/console/auth/two-factor");
  await startEnrolment(db, p.user, PASSWORD, { headers: new Headers({ cookie: p.cookie }), address: "10.0.0.1" });
  const codeAt = await appCodes(p);
  await confirmEnrolment(db, p.user, await codeAt(0), "10.0.0.1");
  return codeAt;
}

/** The person with a passkey; answers the authenticator that holds it. */
async function withPasskey(p: Person) {
  const { registrationOptions, addPasskey, parseCredential } = await import("@/lib/console/auth/passkeys");
  const authenticator = softwareAuthenticator(env().publicUrl);
  const { challengeId, options } = await registrationOptions(db, p.user);
  await addPasskey(
    db,
    p.user,
    { challengeId, response: parseCredential<never>(authenticator.register(options))!, name: "Laptop" },
    "10.0.0.1",
  );
  return authenticator;
}

/** A sandbox invoice still New, each used once. */
function nextInvoice(): string {
  const id = invoices.shift();
  if (!id) throw new Error("out of test invoices: create more in beforeAll");
  return id;
}

const order = () => `AUDIT-${randomUUID().slice(0, 8)}`;

/** A request to cancel an invoice, asked by `by`, waiting for someone else's decision. */
async function pendingApproval(by: Pick<SessionUser, "id" | "email">): Promise<string> {
  const { createApproval } = await import("@/lib/console/approvals/store");
  const row = await createApproval(db, {
    kind: "status_change",
    user: by,
    invoiceId: nextInvoice(),
    fromStatus: "new",
    toStatus: "cancelled",
    reason: "Customer asked",
    why: "Cancelling needs a second person here.",
    snapshot: {},
  });
  return row.id;
}

/** A bulk job's counts once it has finished in the background. */
async function finished(p: Person, jobId: string) {
  const { readBulkJob } = await import("@/lib/console/invoices/bulk-cancel");
  return vi.waitFor(
    async () => {
      const job = await readBulkJob(db, p.user, jobId);
      if (!job?.finished_at) throw new Error(`bulk job ${jobId} still running`);
      return job.counts;
    },
    { timeout: 20_000, interval: 50 },
  );
}

/** The default policy as the settings form posts it (lib/console/approvals/policy-form.ts). */
function policyFields(): Record<string, string> {
  const fields: Record<string, string> = { bulk_approval_over: String(DEFAULT_TRANSITION_POLICY.bulk_approval_over) };
  for (const [to, rule] of Object.entries(DEFAULT_TRANSITION_POLICY.targets)) {
    for (const role of rule.roles) fields[`${to}.roles.${role}`] = "on";
    for (const from of rule.from) fields[`${to}.from.${from}`] = "on";
    fields[`${to}.approval`] = rule.approval;
  }
  for (const from of DEFAULT_TRANSITION_POLICY.guarded_from) fields[`guarded_from.${from}`] = "on";
  return fields;
}
