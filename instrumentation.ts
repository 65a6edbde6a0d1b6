/**
 * Runs once when the server starts: traces when an OTLP endpoint is set (and nothing loaded for them otherwise),
 * then migrate the database and, on the embedded sandbox, seed it, so the first visitor does not wait for either
 * and a broken DATABASE_URL stops the start with a clear message. Against a real provider without DATABASE_URL,
 * says plainly where people and the audit log are kept.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const tracing =
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      ? (await import("./lib/platform/observability/tracing")).startTracing()
      : undefined;
  // The one logger, loaded first: lib/contract logs unexpected errors through it (lib/platform/observability/log.ts).
  const { log } = await import("./lib/platform/observability/log");
  const { startup } = await import("./lib/console/startup");
  await startup();
  const { addShutdownStep, serverStarted } = await import("./lib/platform/server-lifecycle");
  const { localDataNotice } = await import("./lib/platform/local-data");
  const notice = localDataNotice();
  if (notice) log.warn(`Note: ${notice}`);
  // On SIGTERM, once the requests in flight are answered, the spans not yet sent go out, beside the app's own
  // shutdown and for at most 3 s: a collector that does not answer neither holds the exit nor hides its log line.
  if (tracing) {
    addShutdownStep(async (drained) => {
      await drained;
      await Promise.race([
        tracing.shutdown().catch((error: unknown) => log.warn({ err: error }, "traces: the last spans were not sent")),
        new Promise((resolve) => setTimeout(resolve, 3_000).unref()),
      ]);
    });
  }
  serverStarted();
}
