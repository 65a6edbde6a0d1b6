import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditTrail } from "@/lib/console/audit";
import { getDatabase } from "@/lib/platform/db";

/**
 * PATCH /api/invoices/[id] and the page's server action (changeStatusAction) against a real local HTTP server
 * standing in for the provider.
 */
const UUID = "0190a1d2-2222-7000-8000-000000000001";
const ID = `invoice_${UUID}`;
let server: Server;
let invoiceStatus = "pending";
let failPatchWith: number | "hang" | null = null;
let patches: string[] = [];
let PATCH: (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
const cookies: Record<string, string> = {};

const invoice = () => ({
  invoice_id: ID,
  order_id: "ORD-9",
  status: invoiceStatus,
  fiat_amount: 10,
  fiat_currency: "EUR",
  crypto_amount: 0.1,
  currency: "ETH",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: new Date().toISOString(),
});

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.method === "PATCH") {
      patches.push(body);
      if (failPatchWith === "hang") return; // never answers: the console's timeout decides
      if (failPatchWith) return res.writeHead(failPatchWith, { "content-type": "application/json" }).end("{}");
      invoiceStatus = JSON.parse(body).status;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(invoice()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.INVOICING_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  process.env.INVOICING_API_KEY = "sk_test_change_status";
  process.env.UPSTREAM_TIMEOUT_MS = "300";
  ({ PATCH } = await import("@/app/api/invoices/[id]/route"));
  const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
  for (const role of ["support", "admin", "viewer", "finance"] as const) cookies[role] = await signedInCookie(role);
});

beforeEach(() => {
  patches = [];
  failPatchWith = null;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function patch(role: string, body: unknown, origin = "http://console.test") {
  const response = await PATCH(
    new Request(`http://console.test/api/invoices/${UUID}`, {
      method: "PATCH",
      headers: { cookie: cookies[role], origin, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: UUID }) },
  );
  return { status: response.status, body: await response.json() };
}

// The server action reads the request through next/headers; each call names the cookie it is made with.
let actionCookie = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers(actionCookie ? { cookie: actionCookie } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));

async function changeByAction(role: string | null, fields: Record<string, string>) {
  const { changeStatusAction } = await import("./actions");
  actionCookie = role ? cookies[role] : "";
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return (await changeStatusAction(form)) as { status?: string; error?: string; problem?: { status: number; code: string } };
}

// Kept under the id the provider gives the invoice, though the request named it by its bare UUID.
const trail = async () => auditTrail(await getDatabase(), `invoice:${ID}`);

describe("PATCH /api/invoices/[id]", () => {
  it("support cancels with a reason: the provider is asked, the audit log says who, from → to and why", async () => {
    invoiceStatus = "pending";
    const { status, body } = await patch("support", { status: "cancelled", reason: "Order voided by customer" });
    expect(status).toBe(200);
    expect(body.status).toBe("cancelled");
    expect(patches).toEqual([JSON.stringify({ status: "cancelled" })]);
    const last = (await trail()).at(-1)!;
    expect(last.actorEmail).toMatch(/^support-/);
    expect(last.detail).toEqual({
      from: "pending",
      to: "cancelled",
      reason: "Order voided by customer",
      order_id: "ORD-9",
      outcome: "changed",
      upstream_status: 200,
      sent_at: expect.any(String),
    });
  });

  it("a cancellation without a reason is a 422 on /reason, and nothing reaches the provider", async () => {
    const before = (await trail()).length;
    const { status, body } = await patch("admin", { status: "cancelled", reason: "   " });
    expect(status).toBe(422);
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/reason"]);
    expect(patches).toEqual([]);
    expect(await trail()).toHaveLength(before);
  });

  it("a reason with a character that reorders text (U+202E) is a 422 on /reason, nothing sent", async () => {
    const { status, body } = await patch("admin", { status: "cancelled", reason: "refund \u202edenied" });
    expect(status).toBe(422);
    expect(body.errors).toEqual([
      expect.objectContaining({ pointer: "/reason", detail: expect.stringMatching(/change the text's direction/) }),
    ]);
    expect(patches).toEqual([]);
  });

  it("every other status needs a reason too: 422 on /reason, nothing sent", async () => {
    const { status, body } = await patch("admin", { status: "expired" });
    expect(status).toBe(422);
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/reason"]);
    expect(patches).toEqual([]);
  });

  it("a change the policy does not give the role is a 403 transition_not_allowed naming who may, logged, nothing sent", async () => {
    invoiceStatus = "pending";
    const { status, body } = await patch("finance", { status: "cancelled", reason: "x" });
    expect(status).toBe(403);
    expect(body.code).toBe("transition_not_allowed");
    expect(body.detail).toBe("Only support and admin can cancel an invoice. You are signed in as finance.");
    expect(patches).toEqual([]);
    expect((await trail()).at(-1)!.detail).toMatchObject({
      outcome: "refused",
      role: "finance",
      from: "pending",
      to: "cancelled",
      reason: "x",
    });
  });

  it.each(["viewer"])("a %s is refused with 403 naming the permission, and the refusal is logged", async (role) => {
    invoiceStatus = "pending";
    const { status, body } = await patch(role, { status: "cancelled", reason: "x" });
    expect(status).toBe(403);
    expect(body.detail).toContain("invoices:change_status");
    expect(patches).toEqual([]);
    const last = (await trail()).at(-1)!;
    expect(last.actorEmail).toMatch(new RegExp(`^${role}-`));
    expect(last.detail).toEqual({
      outcome: "refused",
      permission: "invoices:change_status",
      role,
      from: "pending",
      to: "cancelled",
      reason: "x",
    });
  });

  it("a provider failure is a 502, nothing changes, and the failed attempt is logged", async () => {
    invoiceStatus = "pending";
    failPatchWith = 500;
    const { status, body } = await patch("support", { status: "cancelled", reason: "Voided" });
    expect(status).toBe(502);
    expect(body.code).toBe("upstream_error");
    expect((await trail()).at(-1)!.detail).toMatchObject({ from: "pending", to: "cancelled", outcome: "failed", upstream_status: 500 });
  });

  it("no answer from the provider is a 504 whose outcome the audit log records as unknown", async () => {
    failPatchWith = "hang";
    const { status, body } = await patch("support", { status: "cancelled", reason: "Voided" });
    expect(status).toBe(504);
    expect(body.code).toBe("upstream_timeout");
    expect((await trail()).at(-1)!.detail).toMatchObject({ to: "cancelled", outcome: "unknown", upstream_status: null });
  });

  it("refuses a request from another site", async () => {
    const { status, body } = await patch("support", { status: "cancelled", reason: "x" }, "https://evil.example");
    expect(status).toBe(403);
    expect(body.code).toBe("cross_site_request");
    expect(patches).toEqual([]);
  });

  it.each([
    ["not JSON", "status=cancelled", 400],
    ["archived", { status: "archived" }, 422],
  ])("answers a body that is %s with %i", async (_, body, expected) => {
    expect((await patch("support", body)).status).toBe(expected);
  });
});

describe("changeStatusAction (the invoice page)", () => {
  it("support cancels with a reason: the same change and audit entry as the route", async () => {
    invoiceStatus = "pending";
    const answer = await changeByAction("support", { invoice_id: UUID, status: "cancelled", reason: "Voided by action" });
    expect(answer).toMatchObject({ status: "cancelled" });
    expect(patches).toEqual([JSON.stringify({ status: "cancelled" })]);
    expect((await trail()).at(-1)!.detail).toEqual({
      from: "pending",
      to: "cancelled",
      reason: "Voided by action",
      order_id: "ORD-9",
      outcome: "changed",
      upstream_status: 200,
      sent_at: expect.any(String),
    });
  });

  it("refuses without a session before anything is read or sent", async () => {
    const before = (await trail()).length;
    const answer = await changeByAction(null, { invoice_id: UUID, status: "cancelled", reason: "x" });
    expect(answer.problem).toMatchObject({ status: 401, code: "unauthenticated" });
    expect(patches).toEqual([]);
    expect(await trail()).toHaveLength(before);
  });

  it("refuses a viewer with 403 naming the permission, and logs the refused attempt as the route does", async () => {
    invoiceStatus = "pending";
    const answer = await changeByAction("viewer", { invoice_id: UUID, status: "cancelled", reason: "y" });
    expect(answer.problem).toMatchObject({ status: 403, code: "forbidden" });
    expect(answer.error).toContain("invoices:change_status");
    expect(patches).toEqual([]);
    expect((await trail()).at(-1)!.detail).toEqual({
      outcome: "refused",
      permission: "invoices:change_status",
      role: "viewer",
      from: "pending",
      to: "cancelled",
      reason: "y",
    });
  });

  it("a cancellation without a reason names /reason, and nothing reaches the provider", async () => {
    const answer = (await changeByAction("support", { invoice_id: UUID, status: "cancelled", reason: " " })) as {
      problem?: { status: number; errors?: { pointer: string }[] };
    };
    expect(answer.problem?.status).toBe(422);
    expect(answer.problem?.errors?.map((e) => e.pointer)).toEqual(["/reason"]);
    expect(patches).toEqual([]);
  });
});
