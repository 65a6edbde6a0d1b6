import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { historicalRatesSchema } from "@/lib/contract";
import { onSecondProvider } from "@/test/on-second-provider";
import { HISTORICAL_RATES } from "@/test/second-provider";

/**
 * GET /api/rates/history against a provider over real HTTP (test/second-provider.ts), of both kinds: one that
 * honours `GET /rates?at=` (as the sandbox's extension does) and one that knows only the spec's GET /rates and
 * answers its current rates. The route must say which it got (`at`, or null), keep every digit, and keep a
 * priced minute so the provider is asked once.
 */
type Route = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
const provider = onSecondProvider();
let history: Route;
let cookie: string;

beforeAll(async () => {
  ({ GET: history } = await import("@/app/api/rates/history/route"));
  cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("viewer");
});
beforeEach(() => {
  // Each test starts with an empty history (the LRU and what it learnt about the provider).
  delete (globalThis as { __invoiceConsoleRatesHistory?: unknown }).__invoiceConsoleRatesHistory;
});

async function ask(at: string, headers: Record<string, string> = { cookie }) {
  const response = await history(new Request(`http://console.test/api/rates/history?at=${encodeURIComponent(at)}`, { headers }), {
    params: Promise.resolve() as never,
  });
  return { status: response.status, text: await response.clone().text(), body: await response.json() };
}
const rateCalls = () => provider.requests.filter((r) => r.url.startsWith("/api/v1/rates"));

describe("a provider that honours ?at=", () => {
  it("answers the rates of the minute of `at`, every digit, with the minute it priced", async () => {
    const { status, text, body } = await ask("2025-03-01T15:03:41+01:00");
    expect(status).toBe(200);
    expect(historicalRatesSchema.parse(body)).toEqual({ rates: HISTORICAL_RATES, at: "2025-03-01T14:03:00.000Z" });
    // As strings with the provider's digits (a float would have made 61234.12345678901).
    expect(text).toContain(`"BTC":"${HISTORICAL_RATES.BTC}"`);
    // The provider was asked for the UTC minute.
    expect(rateCalls().map((r) => r.url)).toEqual([`/api/v1/rates?at=${encodeURIComponent("2025-03-01T14:03:00.000Z")}`]);
  });

  it("asks the provider once per minute: a minute's rates never change", async () => {
    await ask("2025-03-01T14:03:00Z");
    await ask("2025-03-01T14:03:59.999Z");
    await ask("2025-03-01T15:03:30+01:00");
    expect(rateCalls()).toHaveLength(1);
    await ask("2025-03-01T14:04:00Z");
    expect(rateCalls()).toHaveLength(2);
  });

  it("reads a date alone as its midnight UTC", async () => {
    const { body } = await ask("2025-03-01");
    expect(body.at).toBe("2025-03-01T00:00:00.000Z");
  });
});

describe("a provider that ignores ?at= (the spec's GET /rates only)", () => {
  it("answers its current rates with at: null, and then answers from the console's rates cache without asking with at again", async () => {
    provider.settings.ratesAt = "ignore";
    const first = await ask("2025-03-01T14:03:00Z");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ rates: { BTC: "61250", ETH: "3180", USDT: "0.92", LTC: "78.4" }, at: null });
    expect(rateCalls().filter((r) => r.url.includes("at="))).toHaveLength(1);

    const second = await ask("2024-06-01T10:00:00Z");
    expect(second.body.at).toBeNull();
    expect(second.body.rates).toMatchObject({ ETH: "3180" });
    // Not asked with `at` again; the current rates came from the shared cache (one plain GET /rates at most).
    expect(rateCalls().filter((r) => r.url.includes("at="))).toHaveLength(1);
    expect(rateCalls().filter((r) => r.url === "/api/v1/rates").length).toBeLessThanOrEqual(1);
  });

  it("never keeps current rates as a minute's: once the provider honours at, the same minute is priced", async () => {
    provider.settings.ratesAt = "ignore";
    expect((await ask("2025-03-01T14:03:00Z")).body.at).toBeNull();
    delete (globalThis as { __invoiceConsoleRatesHistory?: unknown }).__invoiceConsoleRatesHistory;
    provider.settings.ratesAt = "honour";
    expect((await ask("2025-03-01T14:03:00Z")).body).toEqual({ rates: HISTORICAL_RATES, at: "2025-03-01T14:03:00.000Z" });
  });
});

describe("what is refused before the provider is asked", () => {
  it.each([
    ["not-a-date", "must be a date"],
    ["2025-03-01T14:03:00", "must be a date"], // no offset: which zone's 14:03?
    ["1999-12-31", "on or after 2000-01-01"],
    [new Date(Date.now() + 3_600_000).toISOString(), "must not be in the future"],
  ])("at=%j → 422 naming at", async (at, words) => {
    const { status, body } = await ask(at);
    expect(status).toBe(422);
    expect(JSON.stringify(body)).toContain(words);
    expect(rateCalls()).toHaveLength(0);
  });

  it("no session → 401, and nothing asked", async () => {
    const { status } = await ask("2025-03-01", {});
    expect(status).toBe(401);
    expect(rateCalls()).toHaveLength(0);
  });
});
