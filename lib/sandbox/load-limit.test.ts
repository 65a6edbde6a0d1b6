import { beforeAll, describe, expect, it, vi } from "vitest";

// One slot and a short wait, read by env() on first use; the sandbox's routes are loaded after this.
vi.stubEnv("SANDBOX_MAX_CONCURRENCY", "1");
vi.stubEnv("OVERLOAD_MAX_WAIT_MS", "3000");

const { getSandboxDb, sandboxRoute } = await import("@/lib/sandbox");
const { GET: currenciesRoute } = await import("@/app/sandbox/api/v1/currencies/route");

const request = () => new Request("http://sandbox.test/sandbox/api/v1/currencies", { headers: { "api-key": "sk_test_demo_full" } });
const context = { params: Promise.resolve({}) } as { params: Promise<never> };

beforeAll(async () => {
  await getSandboxDb();
});

describe("the sandbox sheds work past its limit", () => {
  it("with its one slot busy and its queue (four) full, a request is answered 503 with Retry-After at once; the queued ones run after", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const slow = sandboxRoute(async () => {
      started++;
      await gate;
      return { done: true };
    });

    const running = slow(request(), context);
    await vi.waitFor(() => expect(started).toBe(1));
    const queued = Array.from({ length: 4 }, () => currenciesRoute(request(), context));

    const refused = await currenciesRoute(request(), context);
    expect(started).toBe(1); // answered while the slot is still held: nothing waited for it
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({
      code: "overloaded",
      status: 503,
      title: "Busy right now",
      detail: "The sandbox is busy with other requests. Try again in 3 s.",
    });

    release();
    expect((await running).status).toBe(200);
    const answers = await Promise.all(queued);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await answers[0].json()).toHaveProperty("currencies");
  });
});
