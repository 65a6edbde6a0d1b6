// Tests only: prepares a console's database (DATA_DIR or DATABASE_URL) before its server starts, and writes
// the session cookies the access tests send to a JSON file: one valid session per role, and the sessions that
// must open nothing (expired, revoked, a disabled person's). PGlite allows one process at a time, so this runs
// to the end, closing the database, before the server opens it.
//
//   tsx --conditions=react-server test/prepare-console.ts <sessions.json>
import { writeFileSync } from "node:fs";
import { eq, inArray } from "drizzle-orm";
import { getAuth } from "@/lib/console/auth/server";
import { signedInCookie } from "@/lib/console/auth/signed-in-cookie";
import { searchSync } from "@/lib/console/mirror";
import { sessions, users } from "@/lib/console/schema";
import { startup } from "@/lib/console/startup";
import { ROLES, type Role } from "@/lib/contract/roles";
import { closeDatabase, getDatabase } from "@/lib/platform/db";

export type TestSessions = {
  roles: Record<Role, string>;
  /** Cookies that look right and must open nothing. */
  invalid: { forged: string; expired: string; revoked: string; disabled: string };
};

const out = process.argv[2];
if (!out) throw new Error("usage: tsx --conditions=react-server test/prepare-console.ts <sessions.json>");

await startup();
const db = await getDatabase();
const roles = {} as Record<Role, string>;
for (const role of ROLES) roles[role] = await signedInCookie(role);

const tokenOf = (cookie: string) => decodeURIComponent(cookie.split("session_token=")[1].split(";")[0]).split(".")[0];
const expired = await signedInCookie("admin");
await db
  .update(sessions)
  .set({ expiresAt: new Date(Date.now() - 60_000) })
  .where(eq(sessions.token, tokenOf(expired)));
const revoked = await signedInCookie("admin");
await (await getAuth()).api.signOut({ headers: new Headers({ cookie: revoked }) });
// Disabled behind the console's back (the Users page would also end the session): the session row survives.
const disabled = await signedInCookie("admin");
const [session] = await db
  .select({ userId: sessions.userId })
  .from(sessions)
  .where(eq(sessions.token, tokenOf(disabled)));
await db
  .update(users)
  .set({ banned: true })
  .where(inArray(users.id, [session.userId]));

const result: TestSessions = {
  roles,
  invalid: { forged: "invoice-console.session_token=anything", expired, revoked, disabled },
};
writeFileSync(out, JSON.stringify(result, null, 2));
// startup() began the mirror's sync: let go of its lease, or the server would wait for it to run out.
await searchSync().stop();
await closeDatabase();
console.log(`Test sessions written to ${out}.`);
process.exit(0);
