import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Problem, problemResponse } from "@/lib/contract/problem";
import { createConcurrencyLimit } from "@/lib/platform/concurrency-limit";
import { createUpstream } from "./client";

/**
 * A real provider that holds every answer until the test lets it go, and counts what it was asked: enough to
 * fill the console's slots and to see how many calls reached it.
 */
const held: (() => void)[] = [];
const asked: string[] = [];
let origin: string;
const server = createServer((req, res) => {
  asked.push(`${req.method} ${req.url}`);
  held.push(() => answer(res, req.url ?? ""));
});

function answer(res: ServerResponse, url: string) {
  const body = url.startsWith("/invoices?")
    ? { items: [], pagination: { page: 1, page_size: 20, total_records: 0, total_pages: 0 } }
    : url.startsWith("/invoices/")
      ? { invoice_id: decodeURIComponent(url.slice("/invoices/".length)), status: "pending" }
      : { currencies: [{ code: "BTC", name: "Bitcoin", network: "bitcoin", decimals: 8 }] };
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
function releaseAll() {
  for (const release of held.splice(0)) release();
}
const settled = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

const listQuery = { page: 1, page_size: 20, sort_by: "created_at", sort_order: "desc" } as const;

describe("overload is shed, not queued", () => {
  it("past the limit and its queue, a call is refused at once with a 503 problem and Retry-After, before the provider answers", async () => {
    asked.length = 0;
    const limit = createConcurrencyLimit({ what: "the invoicing API", concurrency: 1, queue: 1, maxWaitMs: 2_000 });
    const client = createUpstream({ baseUrl: origin, apiKey: "k", timeoutMs: 10_000, limit });

    const running = settled(client.getInvoice("a"));
    await until(() => asked.length === 1);
    const waiting = settled(client.getInvoice("b"));
    await until(() => limit.waiting === 1);
    // The slot is taken and the one place in the queue too: the third is answered now, not after the others.
    const refused = await settled(client.getInvoice("c"));

    expect(held).toHaveLength(1);
    const problem = (refused as { error: unknown }).error as Problem;
    expect(problem).toBeInstanceOf(Problem);
    expect(problem.is("overloaded")).toBe(true);
    const response = problemResponse(problem);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({
      code: "overloaded",
      status: 503,
      detail: "The invoicing API is busy with other requests. Try again in 2 s.",
    });

    // The one that waited gets the slot as soon as the first is done; the refused one never reached the provider.
    releaseAll();
    await until(() => asked.length === 2);
    releaseAll();
    expect(await running).toHaveProperty("value");
    expect(await waiting).toHaveProperty("value");
    expect(asked).toEqual(["GET /invoices/a", "GET /invoices/b"]);
    expect(limit.active).toBe(0);
  });

  it("a call that waits longer than the bound for a slot is refused with a 503 and Retry-After", async () => {
    asked.length = 0;
    const limit = createConcurrencyLimit({ what: "the invoicing API", concurrency: 1, queue: 10, maxWaitMs: 50 });
    const client = createUpstream({ baseUrl: origin, apiKey: "k", timeoutMs: 10_000, limit });
    const running = settled(client.getInvoice("slow"));
    await until(() => asked.length === 1);

    const waited = (await settled(client.getInvoice("next"))) as { error: Problem };
    expect(waited.error.status).toBe(503);
    expect(waited.error.headers["retry-after"]).toBe("1");
    expect(waited.error.detail).toBe("The invoicing API had no free slot within 0.05 s. Try again in 1 s.");
    expect(limit.waiting).toBe(0);

    releaseAll();
    expect(await running).toHaveProperty("value");
    expect(asked).toEqual(["GET /invoices/slow"]);
  });
});

describe("identical reads at the same moment are coalesced", () => {
  it("the same list and page asked ten times at once is one call to the provider, and everyone gets its answer", async () => {
    asked.length = 0;
    const client = createUpstream({ baseUrl: origin, apiKey: "k", timeoutMs: 10_000 });
    const lists = Array.from({ length: 10 }, () => client.listInvoices(listQuery));
    const otherPage = client.listInvoices({ ...listQuery, page: 2 });
    await until(() => asked.length === 2);
    releaseAll();

    const answers = await Promise.all(lists);
    expect(answers.every((list) => list.pagination.total_records === 0)).toBe(true);
    await otherPage;
    expect(asked.filter((line) => line.includes("page=1"))).toHaveLength(1);
    expect(asked.filter((line) => line.includes("page=2"))).toHaveLength(1);
  });

  it("once answered, the next read asks again (nothing is cached), and changes are never coalesced", async () => {
    asked.length = 0;
    const client = createUpstream({ baseUrl: origin, apiKey: "k", timeoutMs: 10_000 });
    const first = client.listCurrencies();
    await until(() => asked.length === 1);
    releaseAll();
    await first;
    const second = client.listCurrencies();
    await until(() => asked.length === 2);
    releaseAll();
    await second;

    const patches = [client.updateInvoiceStatus("a", { status: "cancelled" }), client.updateInvoiceStatus("a", { status: "cancelled" })];
    await until(() => asked.length === 4);
    for (const release of held.splice(0)) release();
    await Promise.allSettled(patches);
    expect(asked).toEqual(["GET /currencies", "GET /currencies", "PATCH /invoices/a", "PATCH /invoices/a"]);
  });

  it("a read made after a change never shares the answer of a read begun before it", async () => {
    asked.length = 0;
    const client = createUpstream({ baseUrl: origin, apiKey: "k", timeoutMs: 10_000 });
    const before = client.getInvoice("a");
    await until(() => asked.length === 1);
    const change = client.updateInvoiceStatus("a", { status: "cancelled" });
    await until(() => asked.length === 2);
    // Begun while the change is under way: its own call, not the read from before the change.
    const during = client.getInvoice("a");
    await until(() => asked.length === 3);
    for (const release of held.splice(0, 2)) release();
    await Promise.allSettled([before, change]);
    const after = client.getInvoice("a");
    await until(() => asked.length === 4);
    releaseAll();
    await Promise.allSettled([during, after]);
    expect(asked).toEqual(["GET /invoices/a", "PATCH /invoices/a", "GET /invoices/a", "GET /invoices/a"]);
  });

  it("a provider that sheds load itself (503 with Retry-After) is passed on as the same busy problem", async () => {
    const shedding = createServer((_, res) => res.writeHead(503, { "retry-after": "3" }).end());
    await new Promise<void>((resolve) => shedding.listen(0, "127.0.0.1", resolve));
    try {
      const client = createUpstream({
        baseUrl: `http://127.0.0.1:${(shedding.address() as AddressInfo).port}`,
        apiKey: "k",
        timeoutMs: 5_000,
      });
      const { error } = (await settled(client.listCurrencies())) as { error: Problem };
      expect(error.code).toBe("overloaded");
      expect(error.status).toBe(503);
      expect(error.headers["retry-after"]).toBe("3");
      expect(error.upstreamStatus).toBe(503);
    } finally {
      shedding.closeAllConnections();
      await new Promise((resolve) => shedding.close(resolve));
    }
  });
});
