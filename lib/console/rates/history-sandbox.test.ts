import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sandboxRatesRoute } from "@/app/sandbox/api/v1/rates/route";
import { historicalRatesSchema, toDecimal } from "@/lib/contract";
import { env } from "@/lib/platform/env";
import { marketRates } from "@/lib/sandbox/market";

/*
 * GET /api/rates/history against the console's embedded sandbox over real HTTP (a plain Node server on the
 * port the console believes is its own, answering with the sandbox's own route handler; no build needed), as
 * lib/console/rates/embedded-quota.test.ts does. The sandbox's GET /rates?at= extension (README, "Rates") answers the
 * simulated market's rates of that UTC minute with `at`.
 *
 * This needs that extension (branch i22-a). Without it the sandbox answers its current rates without `at`, the
 * console passes them on with `at: null`, and this test fails — as it should: the archive form would then say
 * "current rate" on every back-dated invoice.
 */

let server: Server;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/sandbox/api/v1/rates") return void res.writeHead(404).end();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const answer = await sandboxRatesRoute(new Request(url, { headers }), { params: Promise.resolve({}) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.PORT = String((server.address() as AddressInfo).port);
  expect(env().embeddedSandbox).toBe(true);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function ask(at: string) {
  const { GET } = await import("@/app/api/rates/history/route");
  const cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("finance");
  const response = await GET(new Request(`http://console.test/api/rates/history?at=${encodeURIComponent(at)}`, { headers: { cookie } }), {
    params: Promise.resolve() as never,
  });
  return { status: response.status, body: await response.json() };
}

const decimals = (rates: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(rates).map(([code, rate]) => [code, toDecimal(rate)]));

// The first request opens the embedded database in this process (migrations, and the seed on a fresh clone):
// on a loaded two-core machine that can take over the default 30 s.
describe("historical rates from the embedded sandbox (needs the sandbox's GET /rates?at=, branch i22-a)", { timeout: 120_000 }, () => {
  it("answers the simulated market's rates of the minute of created_at, with that minute", async () => {
    const { status, body } = await ask("2025-03-01T15:03:27+01:00");
    expect(status).toBe(200);
    const answer = historicalRatesSchema.parse(body);
    expect(answer.at).toBe("2025-03-01T14:03:00.000Z");
    expect(answer.rates).toEqual(decimals(marketRates(new Date("2025-03-01T14:03:00Z"))));
    // Not today's: a back-dated invoice is priced at its own minute.
    expect(answer.rates).not.toEqual(decimals(marketRates(new Date())));
  });

  it("a date alone is that day's midnight UTC", async () => {
    const { body } = await ask("2024-11-21");
    expect(body.at).toBe("2024-11-21T00:00:00.000Z");
    expect(body.rates).toEqual(decimals(marketRates(new Date("2024-11-21T00:00:00Z"))));
  });
});

describe("one person's flood of past-rates lookups", { timeout: 120_000 }, () => {
  it("is refused past the person's share with Retry-After, others' lookups past everyone's, and the current rates stay fresh", async () => {
    const { createLookupBudget } = await import("./lookup-budget");
    // The process's budget, in one fixed minute (a real minute could turn over midway).
    const minuteStart = Date.parse("2026-11-26T10:00:00Z");
    (globalThis as { __invoiceConsoleRatesBudget?: unknown }).__invoiceConsoleRatesBudget = createLookupBudget({
      ...env().ratesHistoryBudget,
      now: () => minuteStart + 15_000,
    });
    const { perPerson, shared } = env().ratesHistoryBudget;
    const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
    const { GET: history } = await import("@/app/api/rates/history/route");
    const { GET: rates } = await import("@/app/api/rates/route");
    const call = async (route: typeof history, path: string, cookie: string) =>
      route(new Request(`http://console.test${path}`, { headers: { cookie } }), { params: Promise.resolve() as never });
    const lookups = async (cookie: string, from: number, n: number) => {
      const answers = [];
      for (let i = from; i < from + n; i++) {
        const minute = new Date(Date.parse("2024-06-01T00:00:00Z") + i * 60_000).toISOString();
        answers.push(await call(history, `/api/rates/history?at=${encodeURIComponent(minute)}`, cookie));
      }
      return answers;
    };

    const viewer = await signedInCookie("viewer");
    const flood = await lookups(viewer, 0, 70);
    expect(flood.filter((a) => a.status === 200)).toHaveLength(perPerson);
    const refused = flood[perPerson];
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("45");
    expect((await refused.json()).detail).toMatch(/the most one person may\. Try again in 45 s\./);
    // A minute already asked is answered from what is kept, at no cost.
    expect((await lookups(viewer, 0, 1))[0].status).toBe(200);

    const finance = await signedInCookie("finance");
    const others = await lookups(finance, 100, shared);
    expect(others.filter((a) => a.status === 200)).toHaveLength(shared - perPerson);
    expect((await others.at(-1)!.json()).detail).toMatch(/kept for the current rates/);

    const current = await (await call(rates, "/api/rates", viewer)).json();
    expect(current).toMatchObject({ stale: false, stale_reason: null });
  });
});
