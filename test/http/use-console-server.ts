import { afterAll, beforeAll } from "vitest";
import { type ConsoleServer, startConsoleServer } from "../console-server";

/** A console for one Vitest file: started before its tests, stopped after them. */
export function useConsoleServer(extraEnv: Record<string, string> = {}): () => ConsoleServer {
  let server: ConsoleServer | undefined;
  beforeAll(async () => {
    server = await startConsoleServer(extraEnv);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("The console server has not started.");
    return server;
  };
}
