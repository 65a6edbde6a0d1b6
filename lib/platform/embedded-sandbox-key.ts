import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";

const SETTING = "embedded_sandbox_key";

/**
 * The console's own API key for its embedded sandbox, used when INVOICING_API_KEY is unset. The
 * public demo keys are known to everyone, and GET /rates is limited per key: had the console sent one of them,
 * anybody calling the sandbox with it could spend the console's allowance and leave everyone's rates stale.
 * This key is random, made on first start by whichever instance asks first and kept in the console's settings,
 * so every instance on one database sends the same one (one rate-limit bucket of its own, shared by them as the
 * rates cache is). The sandbox registers it for the demo merchant (lib/sandbox/seed.ts); only the upstream
 * client ever sends it, and it is never shown to anyone.
 *
 * The row is in console.settings (lib/console/schema.ts), read and written here in SQL: lib/platform imports neither
 * service's tables (ARCHITECTURE.md §8), and both services ask for this key.
 */
export async function embeddedSandboxKey(db: Db): Promise<string> {
  const read = async () =>
    ((await db.execute(sql`select value from console.settings where key = ${SETTING}`)) as unknown as { rows: { value: string }[] }).rows[0]
      ?.value;
  const existing = await read();
  if (existing) return existing;
  const key = `sk_test_console_${randomBytes(24).toString("base64url")}`;
  await db.execute(sql`insert into console.settings (key, value) values (${SETTING}, ${key}) on conflict do nothing`);
  // Another instance starting at the same moment may have written its own first: every instance uses that one.
  const stored = await read();
  if (!stored) throw new Error("The console's key for its embedded sandbox could not be stored.");
  return stored;
}
