/**
 * Runs once when the server starts: migrate the database and, on the embedded sandbox, seed it, so the first
 * visitor does not wait for either and a broken DATABASE_URL stops the start with a clear message. Against a
 * real provider without DATABASE_URL, says plainly where people and the audit log are kept.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startup } = await import("./lib/console/startup");
  await startup();
  const { localDataNotice } = await import("./lib/platform/local-data");
  const notice = localDataNotice();
  if (notice) console.warn(`Note: ${notice}`);
  // scripts/server/server.mjs says "Ready on http://…" now.
  (globalThis as typeof globalThis & { __invoiceConsoleServer?: { started?: () => void } }).__invoiceConsoleServer?.started?.();
}
