import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom as random } from "../seeded-random";
import { noScriptForm } from "./no-script-form";
import { bigPost, slowBody } from "./raw-requests";
import { useConsoleServer } from "./use-console-server";

/**
 * Malformed input to every route of the console and the sandbox, over real HTTP against the console's own
 * server: odd query values, broken JSON, wrong content types, huge and deeply nested bodies, odd ids and
 * encodings, missing and garbage keys, with and without a session. Bounded (a fixed seed, a fixed number of
 * requests) and deterministic. Every answer must be below 500, JSON (a problem for errors), free of the API
 * key, and the server must be healthy afterwards.
 */
const SEED = 20261123;
const REQUESTS = 1500;
const CONCURRENCY = 4;
const API_KEY = "sk_test_demo_full";

const root = path.resolve(import.meta.dirname, "../..");
/** Every route file under app/api and app/sandbox, as a path template ("/api/invoices/[id]"). */
const routes = ["app/api", "app/sandbox"].flatMap((dir) =>
  (readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "route.ts")
    .map((f) => `/${path.posix.join(dir.slice(4), path.dirname(f.split(path.sep).join("/")))}`.replace(/\/\.$/, "")),
);

const ODD_IDS = [
  "%E0%A4%A",
  "%",
  "%%",
  "%00",
  "%2F",
  "..%2F..%2Fetc%2Fpasswd",
  "invoice_",
  "invoice_%20",
  "x".repeat(5000),
  "🧾",
  "%F0%9F%A7%BE",
  "invoice_00000000-0000-0000-0000-000000000000",
  "00000000-0000-7000-8000-000000000000",
  "null",
  "undefined",
  "-1",
  "1e309",
  "%3Cscript%3E",
  "'%20OR%201=1--",
  "%C0%AF",
  "%ED%A0%80",
  "a%0Ab",
  "%E2%80%AE",
];
const ODD_VALUES = [
  "",
  " ",
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "9".repeat(400),
  "abc",
  "%E0%A4%A",
  "%00",
  "null",
  "[]",
  "{}",
  "true",
  "2026-13-45",
  "2026-02-30T25:61:61Z",
  "10000-01-01",
  "0000-01-01",
  "2026-01-01T00:00:00+99:99",
  "🧾",
  "x".repeat(3000),
  "new,cancelled",
  "CANCELLED",
  "asc;drop table",
  "../../",
  "%2e%2e",
];
const PARAMS = [
  "status",
  "currency",
  "created_after",
  "created_before",
  "page",
  "page_size",
  "sort_by",
  "sort_order",
  "unknown",
  "page[]",
  "__proto__",
];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const CONTENT_TYPES = [
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=zz",
  "application/json; charset=utf-16",
  "",
  "application/xml",
];

function nested(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

function bodies(pick: <T>(items: T[]) => T): string | undefined {
  return pick<() => string | undefined>([
    () => undefined,
    () => "",
    () => "{",
    () => "null",
    () => "[]",
    () => '"cancelled"',
    () => "42",
    () => JSON.stringify({ status: pick(["cancelled", "archived", "paid", "", null, 1, ["new"], { a: 1 }]) }),
    () => JSON.stringify({ status: "cancelled", reason: "x".repeat(pick([0, 501, 100_000])) }),
    () => JSON.stringify({ status: "cancelled", reason: "nul \u0000 in the middle" }),
    () => `{"status":"cancelled","reason":"half a pair \\ud800 and ${"a".repeat(499)}😀"}`,
    () => JSON.stringify({ status: "pending", __proto__: { admin: true }, constructor: { prototype: { x: 1 } } }),
    () => `{"status":${nested(pick([100, 5_000, 50_000]))}}`,
    () => nested(pick([1_000, 20_000])),
    () => JSON.stringify({ items: Array.from({ length: 20_000 }, (_, i) => ({ i })) }),
    () => "x".repeat(pick([1_000, 1_000_000])),
    () => "\u0000\u0001\u0002",
    () => '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n',
    () => "status=cancelled&reason=x",
  ])();
}

const BODY_TIMEOUT_SECONDS = 2;
const server = useConsoleServer({ REQUEST_BODY_TIMEOUT_SECONDS: String(BODY_TIMEOUT_SECONDS) });

describe("bodies that are slow or huge, on every route and page that takes one", () => {
  /** Every route with a sample id, and pages a server action is posted to. */
  const targets = [
    ...routes.map((route) => route.replace(/\[\.\.\.\w+\]/, "x").replace(/\[\w+\]/, "invoice_x")),
    "/login",
    "/invoices",
    "/users",
    "/archive",
  ];
  const as = () => ({ cookie: server().sessions.roles.admin, origin: server().url, "api-key": API_KEY });

  it("a body that stops arriving → 408 problem at the deadline, and the connection is closed", async () => {
    const slow = targets.map((target) => slowBody(server().url, target, as(), 700));
    const answers = await Promise.all(slow.map((s) => s.answered));
    for (const [i, { status, answer }] of answers.entries()) {
      expect(status, targets[i]).toBe(408);
      expect(answer).toContain("application/problem+json");
    }
  }, 30_000);

  it.each([{ chunked: false }, { chunked: true }])(
    "a 20 MB body (chunked: $chunked) → 413 problem, read no further than the limit",
    async ({ chunked }) => {
      for (const target of targets) {
        const status = await bigPost(server().url, target, 20 * 1_048_576, { chunked, headers: as() });
        expect(status, target).toBe(413);
      }
      expect((await fetch(`${server().url}/api/health`)).status).toBe(200);
    },
    60_000,
  );
});

describe("malformed ids and unknown addresses", () => {
  const malformed = [
    "/api/invoices/%E0%A4%A",
    "/sandbox/api/v1/invoices/%E0%A4%A",
    "/api/invoices/%",
    "/sandbox/api/v1/invoices/%ZZ",
    "/api/invoices/%00",
    "/api/invoices/%20",
  ];
  it.each(malformed.flatMap((path) => ["GET", "PATCH"].map((method) => ({ path, method }))))(
    "$method $path → 404 problem: no invoice has this id",
    async ({ path: pathname, method }) => {
      const response = await fetch(`${server().url}${pathname}`, {
        method,
        headers: { cookie: server().sessions.roles.admin, origin: server().url, "api-key": API_KEY, "content-type": "application/json" },
        // The console's PATCH needs a reason; the sandbox's takes the status alone (any other field is a 422).
        body:
          method === "PATCH"
            ? JSON.stringify({ status: "cancelled", ...(pathname.startsWith("/api/") ? { reason: "fuzz" } : {}) })
            : undefined,
      });
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toMatchObject({
        status: 404,
        code: "not_found",
        detail: expect.stringContaining("No invoice has this id"),
      });
    },
  );

  it.each(["/login", "/nope", "/invoices"])("a broken multipart form posted to %s → 400 problem, not a 500", async (pathname) => {
    const response = await fetch(`${server().url}${pathname}`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=zz", cookie: server().sessions.roles.admin },
      body: "garbage",
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it.each(["/api/nothing-here", "/api/invoices/a/b", "/sandbox/api/v1/nothing-here", "/sandbox/api/v2/invoices"])(
    "GET %s → 404 problem",
    async (pathname) => {
      const response = await fetch(`${server().url}${pathname}`, { headers: { "api-key": API_KEY } });
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    },
  );
});

describe("requests Next.js itself would answer with a bare 500", () => {
  const signInPost = async (headers: Record<string, string>) => {
    const form = await noScriptForm(`${server().url}/login`);
    form.set("email", "admin@example.com");
    form.set("password", "sandbox-demo");
    return fetch(`${server().url}/login`, { method: "POST", body: form, headers, redirect: "manual" });
  };

  it.each([["https://evil.example"], ["null"], ["http://localhost:1"]])(
    "a server action posted from %s → 403 problem, nobody signed in",
    async (origin) => {
      const response = await signInPost({ origin });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: "cross_site_request" });
      expect(response.headers.getSetCookie()).toEqual([]);
    },
  );

  it("the same form from the console's own page signs in", async () => {
    const response = await signInPost({ origin: server().url });
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie().join(";")).toContain("session_token");
  });

  it("a server action whose body is not what the browser sends → 400 problem", async () => {
    const response = await fetch(`${server().url}/login`, {
      method: "POST",
      headers: { "next-action": "7f4699db7b6627ec4fe8cdbe3713b9ecbac491cbd9", "content-type": "text/plain", origin: server().url },
      body: "[garbage",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("a form over 1 MB → 413 problem", async () => {
    const form = new FormData();
    form.set("x", "a".repeat(2_000_000));
    const response = await fetch(`${server().url}/login`, { method: "POST", body: form });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "body_too_large" });
  });

  it("the image optimiser, which the console does not use → 404", async () => {
    const response = await fetch(`${server().url}/_next/image?url=/invoices&w=64&q=75`);
    expect(response.status).toBe(404);
  });

  it("OPTIONS names only the methods a route answers", async () => {
    const response = await fetch(`${server().url}/api/invoices`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("headers over Node.js's limit → 431 problem with the security headers", async () => {
    const response = await fetch(`${server().url}/api/health`, { headers: { "x-big": "a".repeat(20_000) } });
    expect(response.status).toBe(431);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const problem = await response.json();
    expect(problem.code).toBe("headers_too_large");
    expect(problem.request_id).toBe(response.headers.get("x-request-id"));
    expect(problem.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("fuzz: no input makes any route fail", () => {
  it(`${REQUESTS} malformed requests over every route: no 5xx, JSON answers, no key`, async () => {
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const rand = random(SEED);
    const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)];
    const cookies = [
      undefined,
      server().sessions.roles.admin,
      server().sessions.roles.viewer,
      server().sessions.invalid.forged,
      server().sessions.invalid.expired,
    ];
    const keys = [
      undefined,
      API_KEY,
      "sk_test_demo_readonly",
      "garbage",
      "",
      "sk_test_demo_full\t",
      "x".repeat(4000),
      "Bearer sk_test_demo_full",
    ];

    const requests = Array.from({ length: REQUESTS }, () => {
      const template = pick(routes);
      const pathname = template
        .replace("[id]", () => pick(ODD_IDS))
        .replace(
          "[...path]",
          () => `${pick(["nope", "v2", "invoices/x/y", "%E0%A4%A", "invoices%2F..%2F..", "%2e%2e%2Finvoices"])}/${pick(["", "a", "%2F"])}`,
        );
      const query = Array.from({ length: Math.floor(rand() * 4) }, () => `${pick(PARAMS)}=${encodeURIComponent(pick(ODD_VALUES))}`);
      if (rand() < 0.1) query.push(pick(["%", "a=%E0%A4%A", "&&&", "=", "a==b", "status"]));
      const method = pick(METHODS);
      const body = method === "GET" || method === "HEAD" ? undefined : bodies(pick);
      const contentType = pick(CONTENT_TYPES);
      const headers: Record<string, string> = { origin: server().url };
      const cookie = pick(cookies);
      const key = pick(keys);
      if (cookie) headers.cookie = cookie;
      if (key !== undefined && template.startsWith("/sandbox")) headers["api-key"] = key;
      if (contentType) headers["content-type"] = contentType;
      return { route: template, method, url: `${server().url}${pathname}${query.length ? `?${query.join("&")}` : ""}`, headers, body };
    });

    const counts = new Map<string, number>();
    const failures: string[] = [];
    let next = 0;
    async function worker() {
      while (next < requests.length) {
        const r = requests[next++];
        const response = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, redirect: "manual" });
        const text = await response.text();
        const key = `${r.route} ${Math.floor(response.status / 100)}xx`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        const type = response.headers.get("content-type") ?? "";
        const describe = `${r.method} ${r.url.slice(0, 160)} → ${response.status} ${type}`;
        if (response.status >= 500) failures.push(`${describe}: ${text.slice(0, 200)}`);
        // Next.js's redirect to the path without a trailing slash: no body, a Location on this site.
        else if (response.status === 308 && response.headers.get("location")?.startsWith("/")) continue;
        // The metrics route answers Prometheus's text format, which is its contract.
        else if (r.route === "/api/metrics" && response.status === 200 && type.startsWith("text/plain; version=0.0.4")) continue;
        else if (r.method !== "HEAD" && response.status !== 204 && !/^application\/(problem\+)?json/.test(type))
          failures.push(`${describe}: not JSON`);
        else if (response.status >= 400 && r.method !== "HEAD" && !type.startsWith("application/problem+json"))
          failures.push(`${describe}: error without a problem`);
        if (text.includes(API_KEY) && !r.url.includes(API_KEY)) failures.push(`${describe}: the API key is in the answer`);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    console.log(
      `Fuzz, ${REQUESTS} requests (seed ${SEED}), by route and status class:\n` +
        [...counts]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, n]) => `  ${k.padEnd(44)} ${n}`)
          .join("\n"),
    );
    expect(failures.slice(0, 20)).toEqual([]);

    // Still healthy, and still answering real work.
    const health = await fetch(`${server().url}/api/health`);
    expect(health.status).toBe(200);
    const list = await fetch(`${server().url}/api/invoices?page_size=5`, { headers: { cookie: server().sessions.roles.viewer } });
    expect(list.status).toBe(200);
    expect((await list.json()).items).toHaveLength(5);
  }, 180_000);
});
