import { afterAll, beforeAll } from "vitest";
import { type ConsoleServer, startConsoleServer } from "../console-server";
import { type SecondProvider, startSecondProvider } from "../second-provider";

type Env = Record<string, string>;

/** A console for one Vitest file: started before its tests, stopped after them. */
export function useConsoleServer(extraEnv: Env | (() => Env) = {}): () => ConsoleServer {
  let server: ConsoleServer | undefined;
  beforeAll(async () => {
    server = await startConsoleServer(typeof extraEnv === "function" ? extraEnv() : extraEnv);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("The console server has not started.");
    return server;
  };
}

/**
 * A console in front of a provider of the test's own (test/second-provider.ts), so that a test can hold a
 * request at the provider for as long as it needs. The provider starts first and closes last.
 */
export function useConsoleWithProvider(extraEnv: Env = {}): { server: () => ConsoleServer; provider: () => SecondProvider } {
  let started: SecondProvider | undefined;
  beforeAll(async () => {
    started = await startSecondProvider();
  });
  afterAll(async () => {
    await started?.close();
  });
  const provider = () => {
    if (!started) throw new Error("The provider has not started.");
    return started;
  };
  const server = useConsoleServer(() => ({ INVOICING_API_URL: provider().url, INVOICING_API_KEY: provider().key, ...extraEnv }));
  return { server, provider };
}
