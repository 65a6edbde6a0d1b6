import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { addShutdownStep, onShutdown, type ShutdownHook } from "./server-lifecycle";

/** Shutdown steps (the last spans' export) run beside the app's own hook, whichever is registered first. */
const holder = globalThis as typeof globalThis & { __invoiceConsoleServer?: { onShutdown?: ShutdownHook } };

afterEach(() => {
  delete holder.__invoiceConsoleServer;
});

describe("addShutdownStep", () => {
  for (const order of ["step first", "hook first"] as const) {
    it(`runs the step beside the app's hook, whose result is the shutdown's (${order})`, async () => {
      const layer: { requests: AsyncLocalStorage<unknown>; onShutdown?: ShutdownHook } = { requests: new AsyncLocalStorage() };
      holder.__invoiceConsoleServer = layer;
      const ran: string[] = [];
      const hook: ShutdownHook = async (drained) => {
        await drained;
        ran.push("hook");
        return { database: "closed" };
      };
      const step = async (drained: Promise<void>) => {
        await drained;
        ran.push("step");
      };
      if (order === "step first") {
        addShutdownStep(step);
        onShutdown(hook);
      } else {
        onShutdown(hook);
        addShutdownStep(step);
      }
      const result = await layer.onShutdown?.(Promise.resolve(), 1_000);
      expect(result).toEqual({ database: "closed" });
      expect(ran.sort()).toEqual(["hook", "step"]);
    });
  }
});
