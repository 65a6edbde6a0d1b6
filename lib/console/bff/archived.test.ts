import { beforeAll, describe, expect, it } from "vitest";
import { auditTrail } from "@/lib/console/audit";
import { getDatabase } from "@/lib/platform/db";
import { onSecondProvider } from "@/test/on-second-provider";
import { ERROR_STYLES } from "@/test/second-provider";

/**
 * POST /api/archived against a provider that is not our sandbox (test/second-provider.ts): the console checks
 * the body with the contract first (nothing is sent when it breaks a rule), passes the rest on, normalises the
 * provider's answer, maps each shape of its refusals onto the fields they name in the provider's own words,
 * and writes every attempt to the audit log.
 */
type Route = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
const provider = onSecondProvider();
let post: Route;
let cookie: string;

beforeAll(async () => {
  ({ POST: post } = await import("@/app/api/archived/route"));
  cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("finance");
});

async function archive(body: unknown) {
  const response = await post(
    new Request("http://console.test/api/archived", {
      method: "POST",
      headers: { cookie, origin: "http://console.test", "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve() as never },
  );
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
}

const archivePosts = () => provider.requests.filter((r) => r.method === "POST" && r.url === "/api/v1/archived");

describe("POST /api/archived against another provider", () => {
  it("creates the invoice and answers it in the console's shape, with the audit entry", async () => {
    const { status, body } = await archive({
      order_id: "LEGACY-77",
      order_name: "Old order",
      currency: "eth",
      fiat_amount: 318,
      created_at: "2025-05-01T10:00:00+02:00",
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      invoice_id: "70001",
      order_id: "LEGACY-77",
      status: "archived",
      fiat_amount: "318.00",
      crypto_amount: "0.10000000",
      currency: "ETH",
      created_at: "2025-05-01T08:00:00.000Z",
    });
    // As the provider sent them: decimal strings with its digits.
    expect(body.payment.rate).toBe("3180");
    const [entry] = await auditTrail(await getDatabase(), "invoice:70001");
    expect(entry).toMatchObject({
      action: "invoice.archive",
      detail: { outcome: "created", upstream_status: 201, sent: { order_id: "LEGACY-77", currency: "ETH", fiat_amount: "318" } },
    });
  });

  it.each(ERROR_STYLES)(
    "a duplicate order id in the %s style → 422 in the provider's own words, on /order_id when it names the field",
    async (style) => {
      provider.settings.errorStyle = style;
      const { status, type, body } = await archive({ order_id: "SO-1001", currency: "BTC", fiat_amount: 5 });
      expect(status).toBe(422);
      expect(type).toBe("application/problem+json");
      expect(body.detail).toContain("Order SO-1001 has already been recorded");
      if (["rfc9457", "fastapi", "field-map", "nested-error"].includes(style)) {
        expect(body.errors).toEqual([expect.objectContaining({ pointer: "/order_id", detail: "Order SO-1001 has already been recorded" })]);
      } else {
        expect(body.errors).toBeUndefined();
      }
      const [entry] = await auditTrail(await getDatabase(), "order:SO-1001").then((t) => t.slice(-1));
      expect(entry).toMatchObject({ action: "invoice.archive", detail: { outcome: "failed", upstream_status: 422 } });
    },
  );

  it("a currency the provider lacks → 422 on /currency in its words", async () => {
    const { status, body } = await archive({ order_id: "LEGACY-78", currency: "DOGE", fiat_amount: 5 });
    expect(status).toBe(422);
    expect(body.errors).toEqual([expect.objectContaining({ pointer: "/currency", detail: "We don't handle DOGE" })]);
  });

  it.each<[string, unknown, string[]]>([
    ["no order id", { currency: "BTC", fiat_amount: 1 }, ["/order_id"]],
    ["both amounts", { order_id: "X", currency: "BTC", fiat_amount: 1, crypto_amount: 1 }, ["/crypto_amount", "/fiat_amount"]],
    ["a date in the future", { order_id: "X", currency: "BTC", fiat_amount: 1, created_at: "2999-01-01" }, ["/created_at"]],
    ["a bad callback URL", { order_id: "X", currency: "BTC", fiat_amount: 1, callback_url: "shop" }, ["/callback_url"]],
    [
      "a fractional allowed error",
      { order_id: "X", currency: "BTC", fiat_amount: 1, allowed_error_percent: 0.5 },
      ["/allowed_error_percent"],
    ],
  ])("%s → 422 from the contract, and nothing is sent", async (_, body, pointers) => {
    const { status, body: problem } = await archive(body);
    expect(status).toBe(422);
    expect(problem.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(pointers);
    expect(archivePosts()).toEqual([]);
  });

  it("a body that is not a JSON object → 400, nothing sent", async () => {
    expect((await archive("[1]")).status).toBe(400);
    expect(archivePosts()).toEqual([]);
  });
});

describe("POST /api/archived when the provider fails", () => {
  it("a rejected key → 502 saying the console's key was rejected", async () => {
    const { createUpstream } = await import("@/lib/console/upstream/client");
    const bad = createUpstream({ baseUrl: provider.url, apiKey: "wrong", timeoutMs: 5_000 });
    await expect(bad.createArchivedInvoice({ order_id: "LEGACY-80", currency: "BTC", fiat_amount: "5" })).rejects.toMatchObject({
      status: 502,
      code: "upstream_key_rejected",
    });
  });

  it("an unreachable provider → 502, nothing created", async () => {
    const { createUpstream } = await import("@/lib/console/upstream/client");
    const down = createUpstream({ baseUrl: "http://127.0.0.1:9/api/v1", apiKey: "k", timeoutMs: 2_000 });
    await expect(down.createArchivedInvoice({ order_id: "LEGACY-81", currency: "BTC", fiat_amount: "5" })).rejects.toMatchObject({
      status: 502,
      code: "upstream_unreachable",
    });
  });

  it("reads the amount a person sent with all its digits: 18 decimals reach the provider as they were typed", async () => {
    const { status, body } = await archive('{"order_id":"LEGACY-18","currency":"ETH","crypto_amount":0.123456789012345678}');
    expect(status).toBe(201);
    const [entry] = await auditTrail(await getDatabase(), `invoice:${body.invoice_id}`);
    expect(entry.detail).toMatchObject({ sent: { order_id: "LEGACY-18", crypto_amount: "0.123456789012345678" } });
  });
});
