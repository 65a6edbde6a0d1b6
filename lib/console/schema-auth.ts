import { bigint, boolean, index, integer, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { consoleSchema, createdAt, updatedAt } from "./schema-base";

// better-auth's tables (named as it expects) and the second factor's; re-exported by lib/console/schema.ts, which
// drizzle-kit reads.

export const users = consoleSchema.table("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role").notNull().default("viewer"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: timestamp("ban_expires", { withTimezone: true }),
  /** The IANA zone this person counts days and reads times in, instead of CONSOLE_TIME_ZONE (lib/contract/time-zone.ts); null: the business zone. */
  timeZone: text("time_zone"),
  /** better-auth's two-factor plugin: true once an authenticator app is confirmed (lib/console/auth/two-factor.ts). */
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sessions = consoleSchema.table(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const accounts = consoleSchema.table("accounts", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  providerId: text("provider_id").notNull(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  accessToken: text("access_token"),
  refreshToken: text("refresh_token"),
  idToken: text("id_token"),
  accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
  refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
  scope: text("scope"),
  /** better-auth's scrypt hash; never a plain password. */
  password: text("password"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const verifications = consoleSchema.table("verifications", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * better-auth's two-factor plugin: one row a person, the TOTP secret and the recovery codes, both encrypted by
 * better-auth with the auth secret (lib/console/auth/two-factor.ts); `verified` false until a first code confirms it.
 */
export const twoFactors = consoleSchema.table(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [uniqueIndex("two_factors_user_idx").on(t.userId)],
);

/** TOTP time steps already accepted per person: a code is accepted once, never replayed within its window. */
export const totpUsedSteps = consoleSchema.table(
  "totp_used_steps",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    step: bigint("step", { mode: "number" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.step] })],
);

/**
 * Passkeys (WebAuthn credentials, lib/console/auth/passkeys.ts): a second factor, or a sign-in without the
 * password. Only the public key is kept; `counter` is the authenticator's signature count, which must grow.
 */
export const passkeys = consoleSchema.table(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The credential's id as the browser sends it (base64url). */
    credentialId: text("credential_id").notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    /** The authenticator's transports ("internal,hybrid"), handed back to the browser when it asks for this one. */
    transports: text("transports").notNull().default(""),
    /** "singleDevice" or "multiDevice" (synced by a password manager or the system). */
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);
