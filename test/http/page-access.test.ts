import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { can, type Permission, ROLES } from "@/lib/contract/roles";
import { useConsoleServer } from "./use-console-server";

/**
 * Every page under app/, over real HTTP against the console's own server: without a session, with a forged,
 * expired, revoked or disabled person's session, and as each role. The table is read against the file tree,
 * so a new page fails here until someone decides who may open it. "Nothing leaks" is checked against real
 * data: the sandbox's first page of invoices (order ids, payment addresses) and the test users' emails.
 */
type Access = Permission | "public";
/**
 * `ownText`: a page that shows no invoice data proves it rendered with this text instead (and leaks nothing).
 * `status`: a public page's answer when it is not 200.
 */
const PAGES: Record<string, { path: (invoiceId: string) => string; access: Access; ownText?: string; status?: number }> = {
  "app/(console)/overview/page.tsx": { path: () => "/overview", access: "invoices:read", ownText: "Invoices per status, completed volume" },
  "app/(console)/invoices/page.tsx": { path: () => "/invoices?page_size=100", access: "invoices:read" },
  "app/(console)/invoices/[id]/page.tsx": { path: (id) => `/invoices/${encodeURIComponent(id)}`, access: "invoices:read" },
  "app/(console)/users/page.tsx": { path: () => "/users", access: "users:manage" },
  "app/(console)/archive/page.tsx": { path: () => "/archive", access: "invoices:archive", ownText: "Record archived invoices" },
  "app/(console)/docs/api/page.tsx": {
    path: () => "/docs/api",
    access: "invoices:read",
    ownText: "Invoice Console sandbox: invoicing API",
  },
  "app/(console)/rates/page.tsx": { path: () => "/rates", access: "invoices:read", ownText: "EUR per one unit of each currency" },
  "app/(console)/webhooks/page.tsx": { path: () => "/webhooks", access: "webhooks:simulate" },
  // It names each delivery's invoice by its order id.
  "app/(console)/webhooks/deliveries/page.tsx": { path: () => "/webhooks/deliveries", access: "webhooks:manage" },
  // Every signed-in person's own settings: every role reads invoices, so this is "any signed-in person".
  "app/(console)/account/page.tsx": { path: () => "/account", access: "invoices:read", ownText: "Days and times are in" },
  // Whoever may ask for a change sees the requests; a request names its invoice's order only when there is one.
  "app/(console)/approvals/page.tsx": {
    path: () => "/approvals",
    access: "invoices:change_status",
    ownText: "Changes the policy gives a second person",
  },
  // Who did what is the page itself: people's emails and invoices, for those who may read the log.
  "app/(console)/activity/page.tsx": { path: () => "/activity", access: "audit:read" },
  "app/(console)/settings/page.tsx": { path: () => "/settings", access: "policy:manage", ownText: "Status changes" },
  // Setting up an authenticator app: anyone signed in (and the only page for someone whose role needs one first).
  "app/two-factor/page.tsx": { path: () => "/two-factor", access: "invoices:read", ownText: "Set up an authenticator app" },
  "app/login/page.tsx": { path: () => "/login", access: "public" },
  // One-time links: their token is the credential, so without a known one there is nothing but a sentence.
  "app/invite/[token]/page.tsx": {
    path: () => `/invite/${"x".repeat(43)}`,
    access: "public",
    ownText: "This invitation is not valid",
    status: 404,
  },
  "app/reset/[token]/page.tsx": {
    path: () => `/reset/${"x".repeat(43)}`,
    access: "public",
    ownText: "This password reset link is not valid",
    status: 404,
  },
};

const root = path.resolve(import.meta.dirname, "../..");
const pageFiles = (readdirSync(path.join(root, "app"), { recursive: true }) as string[])
  .filter((f) => /^page\.(tsx|ts|jsx|js|mdx)$/.test(path.basename(f)))
  .map((f) => path.posix.join("app", f.split(path.sep).join("/")))
  .sort();

const server = useConsoleServer();
let invoiceId: string;
/** Strings that may appear only on a page its viewer may open. */
let secrets: string[];

beforeAll(async () => {
  const list = await fetch(`${server().url}/sandbox/api/v1/invoices?page_size=100`, { headers: { "api-key": "sk_test_demo_full" } }).then(
    (r) => r.json(),
  );
  invoiceId = list.items[0].invoice_id;
  const invoice = await fetch(`${server().url}/sandbox/api/v1/invoices/${invoiceId}`, { headers: { "api-key": "sk_test_demo_full" } }).then(
    (r) => r.json(),
  );
  const emails = Object.values(server().sessions.roles).length ? await testUserEmails() : [];
  secrets = [
    ...list.items.map((i: { order_id: string }) => i.order_id),
    ...list.items.map((i: { payment?: { address?: string } }) => i.payment?.address).filter(Boolean),
    invoice.order_id,
    ...emails,
  ];
  expect(secrets.length).toBeGreaterThan(150);
  // Pages that name invoices by their order id read it from the console's index (the deliveries log does): filled
  // in the background after the server starts, it is waited for, so that such a page shows what it may.
  for (const giveUpAt = Date.now() + 90_000; ; await new Promise((resolve) => setTimeout(resolve, 500))) {
    const answer = await get("/api/search?q=ORD", server().sessions.roles.admin);
    const index = ((await answer.json()) as { index?: { state?: string; fresh_as_of?: string | null } }).index;
    if (index?.state === "ready" && index.fresh_as_of) break;
    if (Date.now() > giveUpAt) throw new Error(`The console's index was not filled in 90 s: ${JSON.stringify(index)}`);
  }
}, 120_000);

/** The users only the Users page lists (the sign-in page shows the demo accounts' emails on purpose). */
async function testUserEmails(): Promise<string[]> {
  const html = await get("/users", server().sessions.roles.admin).then((r) => r.text());
  const emails = [...new Set(html.match(/[a-z]+-[0-9a-f-]{36}@test\.invalid/g) ?? [])];
  expect(emails.length).toBeGreaterThanOrEqual(ROLES.length);
  for (const role of ROLES) {
    const page = await get("/invoices?page_size=1", server().sessions.roles[role]).then((r) => r.text());
    ownEmail.set(server().sessions.roles[role], emails.find((e) => e.startsWith(`${role}-`) && page.includes(e))!);
  }
  return emails;
}

function get(pathname: string, cookie?: string, headers: Record<string, string> = {}) {
  return fetch(`${server().url}${pathname}`, { redirect: "manual", headers: { ...(cookie ? { cookie } : {}), ...headers } });
}

/** Secrets in a body; a signed-in person's own email (in the account menu) is theirs to see. */
function leaked(body: string, viewerCookie?: string): string[] {
  const own = viewerCookie ? ownEmail.get(viewerCookie) : undefined;
  return secrets.filter((s) => s !== own && body.includes(s));
}
const ownEmail = new Map<string, string>();

describe("every page checks who asks before it reads anything", () => {
  it("lists every page under app/, and only those", () => {
    expect(pageFiles).toEqual(Object.keys(PAGES).sort());
  });

  const invalid = ["none", "forged", "expired", "revoked", "disabled"] as const;
  const cases = Object.entries(PAGES).flatMap(([file, page]) => invalid.map((credential) => ({ file, credential, ...page })));

  it.each(cases)(
    "$file with $credential session: sign-in redirect or sign-in page, and no data",
    async ({ path: pathOf, access, credential, ownText, status }) => {
      const cookie = credential === "none" ? undefined : server().sessions.invalid[credential];
      const target = pathOf(invoiceId);
      // As a browser asks for the page, and as the client router asks for its React Server Components payload.
      for (const headers of [{}, { rsc: "1" }] as Record<string, string>[]) {
        const response = await get(target, cookie, headers);
        const body = await response.text();
        expect(leaked(body), `${target} ${JSON.stringify(headers)}`).toEqual([]);
        if (headers.rsc) continue;
        if (access === "public") {
          expect(response.status).toBe(status ?? 200);
          if (ownText) expect(body).toContain(ownText);
        } else {
          expect(response.status).toBe(307);
          expect(response.headers.get("location")).toBe(`/login?next=${encodeURIComponent(target)}`);
        }
      }
    },
  );

  const roleCases = Object.entries(PAGES)
    .filter(([, page]) => page.access !== "public")
    .flatMap(([file, page]) => ROLES.map((role) => ({ file, role, ...page })));

  it.each(roleCases)("$file as $role: the page, or a clear 403 with no data", async ({ path: pathOf, access, role, ownText }) => {
    const cookie = server().sessions.roles[role];
    const response = await get(pathOf(invoiceId), cookie);
    const body = await response.text();
    if (can(role, access as Permission)) {
      expect(response.status).toBe(200);
      if (ownText) {
        expect(body).toContain(ownText);
        expect(leaked(body, cookie)).toEqual([]);
      } else {
        // The check can fail: a page that may show data does show it.
        expect(leaked(body, cookie).length).toBeGreaterThan(0);
      }
    } else {
      expect(response.status).toBe(403);
      expect(body).toMatch(/You don(&#x27;|')t have access to this page/);
      expect(leaked(body, cookie)).toEqual([]);
    }
  });

  it("answers the outsider's curl with a redirect and no invoice", async () => {
    const response = await get("/invoices?page_size=100", "invoice-console.session_token=anything");
    expect(response.status).toBe(307);
    expect(leaked(await response.text())).toEqual([]);
  });
});
