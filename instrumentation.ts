/**
 * Runs once when the server starts: migrate the database and, on the embedded sandbox, seed it, so the first
 * visitor does not wait for either and a broken DATABASE_URL stops the start with a clear message.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startup } = await import("./lib/console/startup");
  await startup();
}
