import "server-only";
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { admin } from "better-auth/plugins/admin";
import { adminAc, userAc } from "better-auth/plugins/admin/access";
import { twoFactor } from "better-auth/plugins/two-factor";
import { eq } from "drizzle-orm";
import { accounts, sessions, settings, twoFactors, users, verifications } from "@/lib/console/schema";
import { type Db, getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { COOKIE_PREFIX } from "./constants";
import { newRecoveryCodes } from "./recovery-codes";
import { verifiedSignIn } from "./verified-sign-in";

export const SESSION_TTL_SECONDS = 12 * 60 * 60;
/** How long a password stays good for its code step. */
export const TWO_FACTOR_PENDING_SECONDS = 10 * 60;

/** better-auth over the console's tables: email and password, sessions in the database, roles from lib/contract/roles. */
function createAuth(db: Db, secret: string) {
  return betterAuth({
    appName: "Invoice Console",
    baseURL: env().publicUrl,
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    // Nobody signs themselves up: admins add people (UI or `npm run user`).
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8, maxPasswordLength: 128 },
    session: { expiresIn: SESSION_TTL_SECONDS, updateAge: 60 * 60 },
    // The person's own time zone (lib/contract/time-zone.ts): read with the session, set only by lib/console/users/time-zone-action.ts.
    user: { additionalFields: { timeZone: { type: "string", required: false, input: false } } },
    // Sign-in attempts are limited per account and per address by lib/console/auth/sign-in-limiter.ts instead.
    rateLimit: { enabled: false },
    advanced: {
      // Sessions keep the whole address people see: the /64 it would keep by default is for better-auth's own rate
      // limiting, which is off (above); shown, it read "::1" as 0000:0000:0000:0000:0000:0000:0000:0000.
      ipAddress: { ipv6Subnet: 128 },
      cookiePrefix: COOKIE_PREFIX,
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
    },
    plugins: [
      admin({
        defaultRole: "viewer",
        adminRoles: ["admin"],
        roles: { admin: adminAc, support: userAc, finance: userAc, viewer: userAc },
      }),
      // Authenticator-app codes (lib/console/auth/two-factor.ts). better-auth encrypts the secret and the recovery
      // codes with the auth secret (XChaCha20-Poly1305 keyed by its SHA-256: better-auth/crypto symmetricEncrypt).
      // Its own lock-out is off: wrong codes count toward the console's sign-in limiter instead.
      twoFactor({
        issuer: "Invoice Console",
        accountLockout: { enabled: false },
        twoFactorCookieMaxAge: TWO_FACTOR_PENDING_SECONDS,
        // Codes a person can read and type (./recovery-codes.ts), not better-auth's mixed-case ones.
        backupCodeOptions: { customBackupCodesGenerate: newRecoveryCodes },
      }),
      // The session for a person a passkey has just proved (lib/console/auth/passkeys.ts): callable from the server only.
      verifiedSignIn(),
      // Lets server actions set and clear the session cookie.
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const holder = globalThis as typeof globalThis & { __invoiceConsoleAuth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  if (!holder.__invoiceConsoleAuth) {
    holder.__invoiceConsoleAuth = getDatabase().then(async (db) => createAuth(db, env().authSecret ?? (await storedSecret(db))));
    holder.__invoiceConsoleAuth.catch(() => (holder.__invoiceConsoleAuth = undefined));
  }
  return holder.__invoiceConsoleAuth;
}

/** The session-signing secret made on first start and shared through the database by every instance. */
async function storedSecret(db: Db): Promise<string> {
  await db
    .insert(settings)
    .values({ key: "auth_secret", value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, "auth_secret"));
  return row.value;
}
