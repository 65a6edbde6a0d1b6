import "server-only";
import type { AsyncLocalStorage } from "node:async_hooks";

/**
 * What scripts/server/server.mjs (the Node layer in front of Next.js) and the app share. Both run in one process but
 * load their modules apart, so the bridge is one object on globalThis, created by the server before Next.js
 * starts. Under `next dev` or in unit tests there is no server layer: every reader here then answers as if
 * the process were serving normally.
 */
type RequestRecord = { upstreamCalls: number; requestId?: string };
type ServerLayer = {
  /** Set on SIGTERM: readiness answers 503 so a load balancer stops sending work here. */
  draining: boolean;
  /** Per request, for its log line. */
  requests: AsyncLocalStorage<RequestRecord>;
  /** A random token per process: the console's own calls to its embedded sandbox carry it, and are served while draining. */
  internalToken: string;
  /** Registered by the app at start (lib/console/startup.ts), run by the server on SIGTERM. */
  onShutdown?: ShutdownHook;
  /** Called by the app once its start (database, migrations, seed) is done: the server says "Ready on …". */
  started?: () => void;
  /** Run beside onShutdown's own hook (addShutdownStep). */
  shutdownSteps?: ShutdownStep[];
  /**
   * Registered by the app at start: whether a Cookie header holds a session cookie with a valid signature. The
   * server's front door admits those requests in the signed-in people's pool, everything else in the anonymous one.
   */
  isSignedIn?: (cookieHeader: string) => boolean;
};

/**
 * Runs as the server starts draining: may let go at once of what requests do not need (background work),
 * and must wait for `drained` before closing what they do (the database). Its result goes into the shutdown's
 * one log line.
 */
export type ShutdownHook = (drained: Promise<void>, graceMs: number) => Promise<Record<string, string | number>>;

export const INTERNAL_REQUEST_HEADER = "x-invoice-console-internal";

function layer(): ServerLayer | undefined {
  return (globalThis as typeof globalThis & { __invoiceConsoleServer?: ServerLayer }).__invoiceConsoleServer;
}

export function isDraining(): boolean {
  return layer()?.draining ?? false;
}

/** Counted on the request being served, for its log line (LOG_FORMAT=json). */
export function countUpstreamCall(): void {
  const record = layer()?.requests.getStore();
  if (record) record.upstreamCalls += 1;
}

/** The header that lets the console's own call to its embedded sandbox through while the server drains. */
export function internalRequestHeaders(): Record<string, string> {
  const token = layer()?.internalToken;
  return token ? { [INTERNAL_REQUEST_HEADER]: token } : {};
}

/** A step of the shutdown beside the app's own hook (the last spans' export): given `drained`, done when it is. */
export type ShutdownStep = (drained: Promise<void>) => Promise<void>;

export function onShutdown(run: ShutdownHook): void {
  const server = layer();
  if (server) server.onShutdown = withSteps(server, run);
}

/** The app's start is done (instrumentation.ts): scripts/server/server.mjs says "Ready on http://…". */
export function serverStarted(): void {
  layer()?.started?.();
}

/** Adds a step run beside the app's shutdown hook, whichever of the two is registered first. */
export function addShutdownStep(step: ShutdownStep): void {
  const server = layer();
  if (!server) return;
  if (!server.shutdownSteps) {
    server.shutdownSteps = [];
    if (!server.onShutdown) server.onShutdown = withSteps(server, (drained) => drained.then(() => ({})));
  }
  server.shutdownSteps.push(step);
}

function withSteps(server: ServerLayer, run: ShutdownHook): ShutdownHook {
  return async (drained, graceMs) => {
    const [result] = await Promise.all([run(drained, graceMs), ...(server.shutdownSteps ?? []).map((step) => step(drained))]);
    return result;
  };
}

export function onSignedInCheck(check: (cookieHeader: string) => boolean): void {
  const server = layer();
  if (server) server.isSignedIn = check;
}

/** The X-Request-Id of the request being served (made or accepted by the server layer), if there is one. */
export function currentRequestId(): string | undefined {
  return layer()?.requests.getStore()?.requestId;
}

/** Runs `work` outside the request being served (background work, the trace exporter's warnings): no request's id. */
export function outsideRequest<T>(work: () => T): T {
  const requests = layer()?.requests;
  return requests ? requests.exit(work) : work();
}
