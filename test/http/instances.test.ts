import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type ConsoleServer, startConsoleServer } from "../console-server";
import { describeOnPostgres } from "../use-postgres-database";

/**
 * Several instances: two built consoles on one PostgreSQL, as behind a load balancer. Each serves
 * the same data, they share the sandbox's rate limits and the console's rates cache, and a change made
 * through one is seen through the other on the very next request. PostgreSQL: TEST_POSTGRES_URL (CI), else a
 * throwaway cluster when the server programs are installed (test/postgres.ts).
 */

const RATES_LIMIT = 6;
let databaseUrl: string;
let a: ConsoleServer;
let b: ConsoleServer;

/** The console's own database, read directly (the audit log, the approval requests). */
const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
};

/** A change through the console, as a browser on that instance sends it (same origin, JSON). */
const send = (server: ConsoleServer, method: "PATCH" | "POST", path: string, cookie: string, body: unknown) =>
  fetch(server.url + path, {
    method,
    headers: { cookie, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const SANDBOX_KEY = { "api-key": "sk_test_demo_full" };
const sandboxInvoices = async (status: string, pageSize: number): Promise<{ invoice_id: string; status: string }[]> => {
  const answer = await fetch(`${a.url}/sandbox/api/v1/invoices?status=${status}&page_size=${pageSize}`, { headers: SANDBOX_KEY });
  expect(answer.status).toBe(200);
  return (await answer.json()).items;
};

const get = async (server: ConsoleServer, path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, { headers: { cookie: server.sessions.roles.admin, ...headers } });
  return { status: response.status, headers: response.headers, body: await response.json() };
};

describeOnPostgres(
  "two console instances on one PostgreSQL",
  (database) => {
    beforeAll(async () => {
      databaseUrl = database.url;
      const shared = { DATABASE_URL: databaseUrl, SANDBOX_RATES_LIMIT: String(RATES_LIMIT), RATES_TTL_SECONDS: "300", LOG_FORMAT: "json" };
      // One after the other: the first migrates and seeds, the second finds it done.
      a = await startConsoleServer(shared);
      b = await startConsoleServer(shared);
    }, 240_000);
    afterAll(async () => {
      await a?.stop();
      await b?.stop();
    }, 60_000);

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
        body: JSON.stringify({ status: "expired", reason: "Customer never paid" }),
      });
      expect(changed.status).toBe(200);
      const after = await get(b, `/api/invoices/${id}`);
      expect(after.body.status).toBe("expired");
      const inList = await get(b, `/api/invoices?status=expired&page_size=100&sort_by=updated_at&sort_order=desc`);
      expect(inList.body.items.map((i: { invoice_id: string }) => i.invoice_id)).toContain(invoice.invoice_id);
    });

    it("two approvals at once, one on each instance, make exactly one PATCH reach the provider", { timeout: 60_000 }, async () => {
      // Every role's session is a person of its own (test/prepare-console.ts), one set per instance: finance on
      // a asks; a's admin and b's admin, two other people, approve at the same moment.
      const candidates = [...(await sandboxInvoices("pending", 20)), ...(await sandboxInvoices("new", 20))];
      const invoices = candidates.slice(0, 5);
      expect(invoices).toHaveLength(5);
      for (const invoice of invoices) {
        const id = encodeURIComponent(invoice.invoice_id);
        const asked = await send(a, "PATCH", `/api/invoices/${id}`, a.sessions.roles.finance, {
          status: "completed",
          reason: "Paid by bank transfer (instances race)",
        });
        expect(asked.status).toBe(202);
        const { approval } = await asked.json();
        expect(approval).toMatchObject({
          state: "pending",
          invoice_id: invoice.invoice_id,
          from_status: invoice.status,
          to_status: "completed",
        });

        const approve = (server: ConsoleServer) =>
          send(server, "POST", `/api/approvals/${approval.id}/approve`, server.sessions.roles.admin, { reason: "Saw the transfer" }).then(
            async (r) => ({ status: r.status, body: await r.json() }),
          );
        const answers = await Promise.all([approve(a), approve(b)]);
        const won = answers.filter((r) => r.status === 200);
        const lost = answers.filter((r) => r.status !== 200);
        expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
        expect(won[0].body.approval).toMatchObject({ id: approval.id, state: "approved", outcome: "changed" });
        expect(lost[0].body.code).toBe("approval_closed");

        // Exactly one status change was sent, and it changed the invoice; one approval recorded; the request closed.
        const changes = await query<{ outcome: string; approval: string }>(
          `select detail->>'outcome' as outcome, detail->>'approval' as approval from console.audit_log
          where action = 'invoice.status_change' and target = 'invoice:' || $1`,
          [invoice.invoice_id],
        );
        expect(changes).toEqual([{ outcome: "changed", approval: approval.id }]);
        const approvals = await query<{ count: string }>(
          `select count(*) from console.audit_log where action = 'approval.approved' and detail->>'approval' = $1`,
          [approval.id],
        );
        expect(Number(approvals[0].count)).toBe(1);
        const [row] = await query<{ state: string }>("select state from console.approval_requests where id = $1", [approval.id]);
        expect(row.state).toBe("approved");
        // The provider agrees: the invoice is completed.
        const now = await fetch(`${b.url}/sandbox/api/v1/invoices/${id}`, { headers: SANDBOX_KEY });
        expect((await now.json()).status).toBe("completed");
      }
    });

    it("audit entries carry the request id: the 202's X-Request-Id is the approval.requested entry's request_id", async () => {
      const [invoice] = [...(await sandboxInvoices("pending", 1)), ...(await sandboxInvoices("new", 1))];
      expect(invoice).toBeDefined();
      const asked = await send(b, "PATCH", `/api/invoices/${encodeURIComponent(invoice.invoice_id)}`, b.sessions.roles.finance, {
        status: "completed",
        reason: "Paid by bank transfer (request id)",
      });
      expect(asked.status).toBe(202);
      const requestId = asked.headers.get("x-request-id");
      expect(requestId).toBeTruthy();
      const { approval } = await asked.json();
      const entries = await query<{ request_id: string | null }>(
        `select detail->>'request_id' as request_id from console.audit_log
        where action = 'approval.requested' and target = 'invoice:' || $1 and detail->>'approval' = $2`,
        [invoice.invoice_id, approval.id],
      );
      expect(entries).toEqual([{ request_id: requestId }]);
    });
  },
  { instances: 0 },
);
