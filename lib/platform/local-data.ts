import "server-only";
import path from "node:path";
import { env } from "@/lib/platform/env";

/**
 * Against a real provider (INVOICING_API_URL set) without DATABASE_URL, people, sessions and the audit log are
 * kept in a local folder (PGlite): in a container, lost on the next deploy unless the folder is a volume. The
 * start prints this sentence (instrumentation.ts) and the Users page shows it to admins; null when it does not
 * apply (a PostgreSQL server, or the embedded sandbox, whose data is a demo's).
 */
export function localDataNotice(): string | null {
  const e = env();
  if (e.databaseUrl || e.embeddedSandbox) return null;
  return (
    `People, sessions and the audit log are kept in a local folder, ${path.resolve(e.dataDir)} (an embedded PostgreSQL, ` +
    "PGlite), not on a database server. In a container that folder is lost on the next deploy unless it is a volume, " +
    "and only one console process can use it. Set DATABASE_URL to a PostgreSQL server to keep them there."
  );
}
