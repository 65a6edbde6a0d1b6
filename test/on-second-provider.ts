import { afterAll, beforeAll, beforeEach } from "vitest";
import { type SecondProvider, startSecondProvider } from "./second-provider";

/**
 * This test file's console talks to a fresh second provider (./second-provider.ts): started and named in the
 * environment before the file's own beforeAll imports a route (call this above it), back to its seed before each
 * test, closed at the end. The handle reads the running provider, so use it inside hooks and tests.
 */
export function onSecondProvider(env: Record<string, string> = {}): SecondProvider {
  let started: SecondProvider | undefined;
  beforeAll(async () => {
    started = await startSecondProvider();
    Object.assign(process.env, { INVOICING_API_URL: started.url, INVOICING_API_KEY: started.key, ...env });
  });
  beforeEach(() => started?.reset());
  afterAll(() => started?.close());
  return new Proxy({} as SecondProvider, {
    get(_, key) {
      if (!started) throw new Error("The second provider starts in beforeAll: read it inside a hook or a test.");
      const value = Reflect.get(started, key);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
