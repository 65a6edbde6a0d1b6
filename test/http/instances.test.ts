import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleServer, startConsoleServer } from "../console-server";
import { NO_POSTGRES_HINT, postgresAvailable, startTestPostgres, type TestPostgres } from "../postgres";

/**
 * Several instances (issue 16): two built consoles on one PostgreSQL, as behind a load balancer. Each serves
 * the same data, they share the sandbox's rate limits and the console's rates cache, and a change made
 * through one is seen through the other on the very next request. PostgreSQL: TEST_POSTGRES_URL (CI), else a
 * throwaway cluster when the server programs are installed (test/postgres.ts).
 */

const RATES_LIMIT = 6;
const available = postgresAvailable();
if (!available) console.warn(`test/http/instances.test.ts skipped. ${NO_POSTGRES_HINT}`);
let postgres: TestPostgres | null = null;
let a: ConsoleServer;
let b: ConsoleServer;

beforeAll(async () => {
  if (!available) return;
  postgres = await startTestPostgres();
  if (!postgres) throw new Error(NO_POSTGRES_HINT);
  const shared = { DATABASE_URL: postgres.url, SANDBOX_RATES_LIMIT: String(RATES_LIMIT), RATES_TTL_SECONDS: "300", LOG_FORMAT: "json" };
  // One after the other: the first migrates and seeds, the second finds it done.
  a = await startConsoleServer(shared);
  b = await startConsoleServer(shared);
}, 240_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await postgres?.stop();
}, 60_000);

const get = async (server: ConsoleServer, path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, { headers: { cookie: server.sessions.roles.admin, ...headers } });
  return { status: response.status, headers: response.headers, body: await response.json() };
};

describe.skipIf(!available)("two console instances on one PostgreSQL", () => {
  it("serve the same data", async () => {
    const path = "/api/invoices?page=3&page_size=25&sort_by=fiat_amount&sort_order=asc";
    const [fromA, fromB] = await Promise.all([get(a, path), get(b, path)]);
    expect(fromA.status).toBe(200);
    expect(fromA.body.items).toHaveLength(25);
    // The seeded invoices' callback URL is stored as a marker and shown as the answering console's own inbox
    // (lib/sandbox/callback-url.ts), so it names each instance's port; everything else is the same.
    const sameExceptInbox = (body: { items: Record<string, unknown>[] }) => ({
      ...body,
      items: body.items.map(({ callback_url, ...rest }) => ({
        ...rest,
        callback_url: String(callback_url).replace(/^http:\/\/127\.0\.0\.1:\d+\//, "<this console>/"),
      })),
    });
    expect(sameExceptInbox(fromB.body)).toEqual(sameExceptInbox(fromA.body));
    expect(fromB.body.pagination).toEqual(fromA.body.pagination);
  });

  it("share the sandbox's rate limit: requests to either count against one budget per key", async () => {
    const key = { "api-key": "sk_test_demo_readonly" };
    const remaining: number[] = [];
    for (let i = 0; i < RATES_LIMIT; i++) {
      const answer = await fetch(`${(i % 2 ? b : a).url}/sandbox/api/v1/rates`, { headers: key });
      expect(answer.status).toBe(200);
      remaining.push(Number(/r=(\d+)/.exec(answer.headers.get("ratelimit") ?? "")?.[1]));
    }
    expect(remaining).toEqual([5, 4, 3, 2, 1, 0]);
    const refusedByA = await fetch(`${a.url}/sandbox/api/v1/rates`, { headers: key });
    const refusedByB = await fetch(`${b.url}/sandbox/api/v1/rates`, { headers: key });
    expect([refusedByA.status, refusedByB.status]).toEqual([429, 429]);
    expect(Number(refusedByB.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("share the rates cache: the second instance answers the first one's rates without asking upstream", async () => {
    const fromA = await get(a, "/api/rates");
    const fromB = await get(b, "/api/rates");
    expect(fromA.status).toBe(200);
    expect(fromB.body.rates).toEqual(fromA.body.rates);
    expect(fromB.body.fetched_at).toBe(fromA.body.fetched_at);
    const line = (server: ConsoleServer) =>
      server
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .findLast((l) => l.route === "/api/rates");
    // The line reaches this process through a pipe, a moment after the answer.
    await vi.waitFor(() => expect(line(b)).toMatchObject({ status: 200, upstream_calls: 0 }), { timeout: 5_000, interval: 50 });
  });

  it("a status change made through one is seen through the other on the next request", async () => {
    const list = await get(a, "/api/invoices?status=pending&page_size=1");
    const [invoice] = list.body.items;
    expect(invoice.status).toBe("pending");
    const id = encodeURIComponent(invoice.invoice_id);

    const before = await get(b, `/api/invoices/${id}`);
    expect(before.body.status).toBe("pending");
    const changed = await fetch(`${a.url}/api/invoices/${id}`, {
      method: "PATCH",
      headers: { cookie: a.sessions.roles.admin, origin: a.url, "content-type": "application/json" },
      body: JSON.stringify({ status: "expired" }),
    });
    expect(changed.status).toBe(200);
    const after = await get(b, `/api/invoices/${id}`);
    expect(after.body.status).toBe("expired");
    const inList = await get(b, `/api/invoices?status=expired&page_size=100&sort_by=updated_at&sort_order=desc`);
    expect(inList.body.items.map((i: { invoice_id: string }) => i.invoice_id)).toContain(invoice.invoice_id);
  });
});
