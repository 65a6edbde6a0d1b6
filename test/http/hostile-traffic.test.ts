import { readFileSync } from "node:fs";
import http from "node:http";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { bigPost, slowBody } from "./raw-requests";
import { useConsoleServer } from "./use-console-server";

/**
 * Outsiders' attacks, each bounded in count and time, against the built console over real HTTP: what an
 * outsider on the network can send must cost the console a socket, never a signed-in person's answer.
 */

const BODY_TIMEOUT_SECONDS = 3;
const server = useConsoleServer({
  REQUEST_MAX_CONCURRENCY: "4",
  REQUEST_BODY_TIMEOUT_SECONDS: String(BODY_TIMEOUT_SECONDS),
  EXPORT_MAX_PER_PERSON: "2",
  WEBHOOK_INBOX_MAX_ENTRIES: "10",
  WEBHOOK_INBOX_RATE_LIMIT: "60",
  RATES_TTL_SECONDS: "1",
});
const DEMO_WEBHOOK_SECRET = "whsec_aW52b2ljZS1jb25zb2xlLWRlbW8tc2VjcmV0IQ==";

/** Resident memory of the server's process, in MB (Linux /proc). */
function rssMb(): number {
  const status = readFileSync(`/proc/${server().child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

describe("slow bodies", () => {
  it("hold no front-door place: signed-in people are served while 16 trickle, and the trickles get a 408 at the deadline", async () => {
    const viewer = { cookie: server().sessions.roles.viewer };
    const targets = ["/api/webhook-inbox", "/sandbox/api/v1/archived", "/login"];
    const slow = Array.from({ length: 16 }, (_, i) =>
      slowBody(server().url, targets[i % targets.length], i % 3 === 2 ? { "next-action": "x", origin: server().url } : {}, 500),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await fetch(`${server().url}/api/invoices?page=${i + 1}`, { headers: viewer })).status);
      const pages = await Promise.all([
        fetch(`${server().url}/invoices`, { headers: viewer }),
        fetch(`${server().url}/rates`, { headers: viewer }),
      ]);
      expect([...statuses, ...pages.map((p) => p.status)]).toEqual(Array(10).fill(200));

      const answers = await Promise.all(slow.map((s) => s.answered));
      for (const { answer, status } of answers) {
        expect(status).toBe(408);
        expect(answer).toContain('"code":"request_timeout"');
      }
    } finally {
      slow.forEach((s) => s.stop());
    }
  }, 60_000);

  it("that fill the anonymous pool refuse other anonymous requests at most, never a forged cookie's way into the people's pool", async () => {
    // Anonymous requests that are slow to be *worked on* (not to arrive) hold anonymous places only.
    const viewer = { cookie: server().sessions.roles.viewer };
    const anonymous = Array.from({ length: 24 }, () =>
      fetch(`${server().url}/sandbox/api/v1/invoices?page_size=100`, { headers: { "api-key": "sk_test_demo_full" } }).then((r) => r.status),
    );
    const forged = fetch(`${server().url}/api/invoices`, { headers: { cookie: server().sessions.invalid.forged } }).then((r) => r.status);
    const signedIn = Array.from({ length: 4 }, () => fetch(`${server().url}/api/invoices`, { headers: viewer }).then((r) => r.status));
    expect(await Promise.all(signedIn)).toEqual([200, 200, 200, 200]);
    // A forged cookie is nobody: refused as anonymous (401), or busy in the anonymous pool (503).
    expect([401, 503]).toContain(await forged);
    const statuses = await Promise.all(anonymous);
    expect(statuses.every((s) => s === 200 || s === 503 || s === 429)).toBe(true);
  }, 60_000);
});

describe("clients that go away", () => {
  it("mid-body, mid-page or mid-export: normal, not an error in the server's log", async () => {
    const { url, sessions } = server();
    const gone = Array.from({ length: 6 }, (_, i) =>
      slowBody(url, ["/api/webhook-inbox", "/sandbox/api/v1/archived", "/login"][i % 3], {}, 50),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    gone.forEach((g) => g.stop());
    const pages = ["/api/invoices/export?format=csv", "/invoices", "/api/invoices?page_size=100"].map((path) => {
      const controller = new AbortController();
      const request = fetch(`${url}${path}`, { headers: { cookie: sessions.roles.admin }, signal: controller.signal })
        .then((r) => r.body?.getReader().read())
        .catch(() => {});
      setTimeout(() => controller.abort(), 30);
      return request;
    });
    await Promise.all(pages);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect(server().output()).not.toMatch(/uncaughtException|Error: aborted|ECONNRESET/);
  });
});

describe("huge bodies", () => {
  it("a 100 MB body is refused 413 by its Content-Length before it is read, and memory does not grow", async () => {
    const before = rssMb();
    const statuses = await Promise.all(
      ["/sandbox/api/v1/archived", "/api/archived", "/api/webhooks/simulate"].map((path) =>
        bigPost(server().url, path, 100 * 1_048_576, { chunked: false }),
      ),
    );
    for (const status of statuses) expect([413, "reset"]).toContain(status);
    expect(statuses).toContain(413);
    expect(rssMb() - before).toBeLessThan(50);
  }, 60_000);

  it("a chunked 100 MB body is counted as it arrives and refused 413 at the cap, and memory does not grow", async () => {
    const before = rssMb();
    const status = await bigPost(server().url, "/sandbox/api/v1/archived", 100 * 1_048_576, { chunked: true });
    expect([413, "reset"]).toContain(status);
    expect(rssMb() - before).toBeLessThan(50);
    const response = await fetch(`${server().url}/api/archived`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: server().sessions.roles.finance, origin: server().url },
      body: "x".repeat(2_000_000),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "body_too_large", status: 413 });
    expect((await fetch(`${server().url}/api/health`)).status).toBe(200);
  }, 60_000);
});

describe("exports", () => {
  /** Starts a JSON export and reads nothing of it: the console's side stays open, as a slow download's would. */
  function heldExport(
    cookie: string,
  ): Promise<{ status: number; retryAfter: string | null; body: () => Promise<string>; close: () => void }> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${server().url}/api/invoices/export?format=json`, { headers: { cookie } }, (response) => {
        response.pause();
        const body = () =>
          new Promise<string>((done) => {
            let text = "";
            response
              .setEncoding("utf8")
              .on("data", (c) => (text += c))
              .on("end", () => done(text))
              .resume();
          });
        resolve({
          status: response.statusCode!,
          retryAfter: response.headers["retry-after"] ?? null,
          body,
          close: () => request.destroy(),
        });
      });
      request.on("error", reject);
    });
  }

  it("at most EXPORT_MAX_PER_PERSON at once per person: the next gets a 429 with Retry-After and a reason; others still export", async () => {
    const { viewer, finance } = server().sessions.roles;
    const first = await heldExport(viewer);
    const second = await heldExport(viewer);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await heldExport(viewer);
    expect(third.status).toBe(429);
    expect(Number(third.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(await third.body())).toMatchObject({
      code: "too_many_exports",
      detail: expect.stringContaining("You already have 2 exports running"),
    });

    const someoneElse = await heldExport(finance);
    expect(someoneElse.status).toBe(200);
    someoneElse.close();
    // A finished (or abandoned) export gives its slot back.
    first.close();
    second.close();
    await expect
      .poll(
        async () => {
          const again = await heldExport(viewer);
          again.close();
          return again.status;
        },
        { timeout: 10_000 },
      )
      .toBe(200);
  }, 60_000);
});

describe("the webhook inbox under a flood", () => {
  it("keeps a signed webhook whatever unsigned posts follow, and limits each address's posts a minute", async () => {
    const { url } = server();
    const body = JSON.stringify({
      type: "invoice.status_changed",
      timestamp: new Date().toISOString(),
      data: { invoice: { invoice_id: "inv_flood_signed", status: "cancelled" } },
    });
    const id = `msg_flood_${Date.now()}`;
    const at = new Date();
    const signedHeaders = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(DEMO_WEBHOOK_SECRET).sign(id, at, body),
    };
    const kept = await fetch(`${url}/api/webhook-inbox`, {
      method: "POST",
      headers: { "content-type": "application/json", ...signedHeaders },
      body,
    });
    expect(kept.status).toBe(200);

    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) {
      const response = await fetch(`${url}/api/webhook-inbox`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"type":"spam"}',
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toContain(202);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);

    const inbox = await fetch(`${url}/api/webhook-inbox?limit=100`, { headers: { cookie: server().sessions.roles.admin } }).then((r) =>
      r.json(),
    );
    expect(inbox.entries.map((e: { message_id: string }) => e.message_id)).toContain(id);
  }, 60_000);
});

describe("what the public demo key can do", () => {
  const demoKey = { "api-key": "sk_test_demo_full", "content-type": "application/json" };

  it("an order name a spreadsheet could split on `;` is exported quoted, and no part of it starts a formula", async () => {
    const { url, sessions } = server();
    const orderId = `hostile-${Date.now()}`;
    const created = await fetch(`${url}/sandbox/api/v1/archived`, {
      method: "POST",
      headers: demoKey,
      body: JSON.stringify({
        order_id: orderId,
        order_name: "x;=cmd|'/C calc'!A0;y",
        fiat_amount: 10,
        currency: "BTC",
        created_at: "2025-06-01",
      }),
    });
    expect(created.status).toBe(201);
    const csv = await fetch(
      `${url}/api/invoices/export?format=csv&status=archived&created_after=2025-05-31T00:00:00Z&created_before=2025-06-02T00:00:00Z`,
      { headers: { cookie: sessions.roles.viewer } },
    ).then((r) => r.text());
    const line = csv.split("\r\n").find((l) => l.includes(orderId))!;
    expect(line).toContain(`"x;'=cmd|'/C calc'!A0;y"`);
    for (const separator of [";", ",", "\t"]) {
      for (const part of line.split(separator))
        expect(part.replace(/^[\s"]+/, ""), `split on ${JSON.stringify(separator)}`).not.toMatch(/^[=+\-@]/);
    }
  });

  it("year 10000 and the far past: a 200 or a 422 problem, never a 500, from the sandbox and through the console", async () => {
    const { url, sessions } = server();
    for (const instant of [
      "9999-12-31T23:59:59Z",
      "10000-01-01T00:00:00Z",
      "0001-01-01T00:00:00Z",
      "1969-12-31T23:59:59Z",
      "2016-12-31T23:59:60Z",
    ]) {
      for (const param of ["created_after", "created_before"]) {
        const query = `${param}=${encodeURIComponent(instant)}`;
        const direct = await fetch(`${url}/sandbox/api/v1/invoices?${query}`, { headers: demoKey });
        const proxied = await fetch(`${url}/api/invoices?${query}`, { headers: { cookie: sessions.roles.viewer } });
        for (const answer of [direct, proxied]) {
          expect([200, 422], `${answer.url}`).toContain(answer.status);
          if (answer.status === 422) expect(await answer.json()).toMatchObject({ code: "validation_failed" });
        }
      }
    }
  });

  it("cannot starve the console's own rates: past the demo key's limit a minute, the console's rates stay fresh", async () => {
    const { url, sessions } = server();
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) {
      const response = await fetch(`${url}/sandbox/api/v1/rates`, { headers: demoKey });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toContain(429);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the console's cache of 1 s: it asks again
    const rates = await fetch(`${url}/api/rates`, { headers: { cookie: sessions.roles.viewer } }).then((r) => r.json());
    expect(rates).toMatchObject({ stale: false, stale_reason: null });
  });
});
