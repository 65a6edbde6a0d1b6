import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { can, type Permission, ROLES, type Role } from "@/lib/contract/roles";
import { answeredMethods, ROUTE_METHODS } from "@/lib/platform/http-methods";
import { openTransitionPolicy } from "@/test/open-policy";

/**
 * Every app/api route, called without a session and as each role. The table is the contract: a route that
 * is not in it fails the first test, so nobody adds an endpoint without deciding who may call it, and each
 * allowed call must answer what the route really answers (a 500 is not "allowed").
 */
type Access = Permission | "public";
type Method = { access: Access; status: number; body?: Record<string, unknown> };
const ROUTES: Record<string, { path: string; params?: Record<string, string | string[]>; methods: Partial<Record<string, Method>> }> = {
  "app/api/[...path]/route.ts": {
    path: "/api/no/such/thing",
    params: { path: ["no", "such", "thing"] },
    methods: Object.fromEntries(ROUTE_METHODS.map((m) => [m, { access: "public", status: 404 }])),
  },
  // Signing in again in place: anyone may try; a form without credentials is answered as a failed sign-in.
  "app/api/session/sign-in/route.ts": { path: "/api/session/sign-in", methods: { POST: { access: "public", status: 200, body: {} } } },
  "app/api/health/route.ts": { path: "/api/health", methods: { GET: { access: "public", status: 200 } } },
  "app/api/health/ready/route.ts": { path: "/api/health/ready", methods: { GET: { access: "public", status: 200 } } },
  // Or with Authorization: Bearer $HEALTH_TOKEN (test/http/metrics.test.ts).
  "app/api/metrics/route.ts": { path: "/api/metrics", methods: { GET: { access: "users:manage", status: 200 } } },
  "app/api/invoices/route.ts": { path: "/api/invoices", methods: { GET: { access: "invoices:read", status: 200 } } },
  "app/api/invoices/[id]/route.ts": {
    path: "/api/invoices/invoice_0190a1d2-1111-7000-8000-000000000001",
    params: { id: "invoice_0190a1d2-1111-7000-8000-000000000001" },
    methods: {
      GET: { access: "invoices:read", status: 200 },
      // Every role that may ask may make this change at once under the open policy of this test.
      PATCH: { access: "invoices:change_status", status: 200, body: { status: "expired", reason: "Access table" } },
    },
  },
  "app/api/approvals/route.ts": {
    path: "/api/approvals?state=pending",
    methods: { GET: { access: "invoices:change_status", status: 200 } },
  },
  ...Object.fromEntries(
    (["approve", "reject", "withdraw"] as const).map((decision) => [
      `app/api/approvals/[id]/${decision}/route.ts`,
      {
        path: `/api/approvals/0190a1d2-1111-7000-8000-000000000009/${decision}`,
        params: { id: "0190a1d2-1111-7000-8000-000000000009" },
        methods: {
          POST: {
            access: decision === "withdraw" ? "invoices:change_status" : "invoices:approve",
            status: 404,
            body: { reason: "Access table" },
          },
        },
      },
    ]),
  ),
  "app/api/invoices/summary/route.ts": {
    path: "/api/invoices/summary?status=pending,paid_partial",
    methods: { GET: { access: "invoices:read", status: 200 } },
  },
  "app/api/invoices/bulk/route.ts": { path: "/api/invoices/bulk", methods: { GET: { access: "invoices:change_status", status: 200 } } },
  "app/api/invoices/bulk/[id]/route.ts": {
    path: "/api/invoices/bulk/0190a1d2-1111-7000-8000-000000000001",
    params: { id: "0190a1d2-1111-7000-8000-000000000001" },
    methods: { GET: { access: "invoices:change_status", status: 404 } },
  },
  "app/api/invoices/export/route.ts": {
    path: "/api/invoices/export?format=csv",
    methods: { GET: { access: "invoices:export", status: 200 } },
  },
  "app/api/activity/route.ts": { path: "/api/activity?action=sign_in", methods: { GET: { access: "audit:read", status: 200 } } },
  "app/api/activity/export/route.ts": { path: "/api/activity/export?format=json", methods: { GET: { access: "audit:read", status: 200 } } },
  "app/api/activity/verify/route.ts": { path: "/api/activity/verify", methods: { GET: { access: "audit:verify", status: 200 } } },
  "app/api/currencies/route.ts": { path: "/api/currencies", methods: { GET: { access: "invoices:read", status: 200 } } },
  "app/api/rates/route.ts": { path: "/api/rates", methods: { GET: { access: "invoices:read", status: 200 } } },
  "app/api/rates/history/route.ts": {
    path: "/api/rates/history?at=2025-03-01T14:03:00Z",
    methods: { GET: { access: "invoices:read", status: 200 } },
  },
  "app/api/search/route.ts": { path: "/api/search?q=O-1", methods: { GET: { access: "invoices:read", status: 200 } } },
  "app/api/archived/route.ts": {
    path: "/api/archived?order_id=LEGACY-1",
    methods: {
      GET: { access: "invoices:archive", status: 200 },
      POST: { access: "invoices:archive", status: 201, body: { order_id: "LEGACY-1", currency: "BTC", fiat_amount: 10 } },
    },
  },
  "app/api/webhooks/simulate/route.ts": {
    path: "/api/webhooks/simulate",
    methods: {
      POST: {
        access: "webhooks:simulate",
        status: 200,
        body: { invoice_id: "invoice_0190a1d2-1111-7000-8000-000000000001", status: "completed" },
      },
    },
  },
  "app/api/webhook-deliveries/route.ts": {
    path: "/api/webhook-deliveries?state=failed",
    methods: { GET: { access: "webhooks:manage", status: 200 } },
  },
  "app/api/webhook-deliveries/[id]/redeliver/route.ts": {
    path: "/api/webhook-deliveries/msg_1/redeliver",
    params: { id: "msg_1" },
    methods: { POST: { access: "webhooks:manage", status: 202 } },
  },
  "app/api/webhook-deliveries/resend-jobs/[id]/route.ts": {
    path: "/api/webhook-deliveries/resend-jobs/0190a1d2-1111-7000-8000-000000000001",
    params: { id: "0190a1d2-1111-7000-8000-000000000001" },
    methods: { GET: { access: "webhooks:manage", status: 404 } },
  },
  // Providers post webhooks with no session (unsigned here, and no WEBHOOK_SECRET: kept as "not verified", 202).
  "app/api/webhook-inbox/route.ts": {
    path: "/api/webhook-inbox",
    methods: {
      GET: { access: "webhooks:simulate", status: 200 },
      POST: { access: "public", status: 202, body: { type: "invoice.status_changed" } },
    },
  },
};

const root = path.resolve(import.meta.dirname, "../../..");
const routeFiles = (readdirSync(path.join(root, "app/api"), { recursive: true }) as string[])
  .filter((f) => path.basename(f) === "route.ts")
  .map((f) => path.posix.join("app/api", f.split(path.sep).join("/")))
  .sort();

let upstream: Server;
const cookies = {} as Record<Role, string>;

beforeAll(async () => {
  // A stand-in invoicing API that answers every call well, so an allowed call is a 200.
  const invoice = {
    invoice_id: "invoice_0190a1d2-1111-7000-8000-000000000001",
    order_id: "O-1",
    status: "new",
    fiat_amount: 1,
    fiat_currency: "EUR",
    crypto_amount: 1,
    currency: "BTC",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  };
  upstream = createServer((req, res) => {
    const url = req.url ?? "";
    const body = url.startsWith("/api/v1/invoices?")
      ? {
          items: [invoice],
          pagination: { current_page: 1, page_size: 20, total_pages: 1, total_records: 1, has_next: false, has_previous: false },
        }
      : url.startsWith("/api/v1/invoices/")
        ? invoice
        : url === "/api/v1/archived"
          ? { ...invoice, status: "archived" }
          : url === "/api/v1/rates"
            ? { rates: { BTC: 61234.5 } }
            : url.startsWith("/api/v1/rates?at=")
              ? { rates: { BTC: 61234.5 }, at: "2025-03-01T14:03:00.000Z" }
              : url === "/api/v1/webhooks/simulate"
                ? { status: "sent", message: "Webhook sent." }
                : url.startsWith("/api/v1/webhook-deliveries?")
                  ? { items: [], pagination: { current_page: 1, page_size: 20, total_pages: 0, total_records: 0 } }
                  : url.endsWith("/redeliver")
                    ? { webhook_id: "msg_1", invoice_id: invoice.invoice_id, state: "delivered", attempts: [] }
                    : { currencies: [{ code: "BTC", name: "Bitcoin" }] };
    const status = url === "/api/v1/archived" ? 201 : url.endsWith("/redeliver") ? 202 : 200;
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  process.env.INVOICING_API_URL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v1`;
  process.env.INVOICING_API_KEY = "sk_test_route_access";

  const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
  for (const role of ROLES) cookies[role] = await signedInCookie(role);
  expect(cookies.viewer).toContain("session_token");
  // Who may call a route is under test here; which change each role may ask for is the policy's (approvals tests).
  await openTransitionPolicy();
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

async function call(
  file: string,
  method: string,
  cookie?: string,
): Promise<{ status: number; code?: string; detail?: string; allow: string | null }> {
  const route = ROUTES[file];
  const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
  const body = route.methods[method]?.body;
  const request = new Request(`http://console.test${route.path}`, {
    method,
    headers: { ...(cookie ? { cookie } : {}), origin: "http://console.test", ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const response = await module[method](request, { params: Promise.resolve(route.params ?? {}) });
  const json = await response.json().catch(() => ({}));
  return { status: response.status, code: json.code, detail: json.detail, allow: response.headers.get("allow") };
}

describe("app/api access table", () => {
  it("lists every route under app/api, and only those", () => {
    expect(routeFiles).toEqual(Object.keys(ROUTES).sort());
  });

  it("lists every method every route answers, and only those", async () => {
    for (const file of routeFiles) {
      const module = await import(/* @vite-ignore */ path.join(root, file));
      expect(answeredMethods(module).sort(), file).toEqual(Object.keys(ROUTES[file].methods).sort());
      // Route files export a handler for every method, so none falls back to Next.js's empty 405.
      for (const method of ROUTE_METHODS) expect(typeof module[method], `${file} ${method}`).toBe("function");
    }
  });

  const cases = Object.entries(ROUTES).flatMap(([file, route]) =>
    Object.entries(route.methods).map(([method, expected]) => ({ file, method, ...(expected as Method) })),
  );
  const refusedMethods = Object.entries(ROUTES).flatMap(([file, route]) =>
    ROUTE_METHODS.filter((m) => !(m in route.methods)).map((method) => ({ file, method, allowed: Object.keys(route.methods) })),
  );

  it.each(cases)("$method $file without a session → 401 unless public", async ({ file, method, access, status: expected }) => {
    const { status, code } = await call(file, method);
    if (access === "public") expect(status).toBe(expected);
    else expect({ status, code }).toEqual({ status: 401, code: "unauthenticated" });
  });

  for (const role of ROLES) {
    it.each(cases)(`$method $file as ${role}`, async ({ file, method, access, status: expected }) => {
      const { status, code, detail } = await call(file, method, cookies[role]);
      if (access === "public" || can(role, access)) expect(status).toBe(expected);
      else {
        expect({ status, code }).toEqual({ status: 403, code: "forbidden" });
        expect(detail).toContain(access);
      }
    });
  }

  it.each(refusedMethods)("$method $file → 405 problem naming what is allowed", async ({ file, method, allowed }) => {
    const { status, code, allow } = await call(file, method, cookies.admin);
    expect({ status, code }).toEqual({ status: 405, code: "method_not_allowed" });
    for (const m of allowed) expect(allow).toContain(m);
    expect(allow).toContain("OPTIONS");
  });
});
