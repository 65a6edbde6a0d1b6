import "server-only";
import ipaddr from "ipaddr.js";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { isRole, type Role } from "@/lib/contract/roles";
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from "@/lib/contract/time-zone";
import { sslModeOf } from "@/lib/platform/db/postgres-connection";
import { emptyAsUnset, invalidConfiguration, problemLines, readServerSettings } from "@/lib/platform/server-settings.mjs";

/**
 * The one place the process environment is read. Validated once, on first use; a bad value stops the
 * server with a message naming the variable instead of failing later in some request. The server layer's
 * settings (port, proxies, public URL, limits) are defined once in ./server-settings.mjs, which it reads too.
 */

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const MAX_RETRY_DELAY_MS = 7 * 24 * 3_600_000;

/** "5s,5m,30m,2h": the delays before each retry of an unanswered webhook, in milliseconds. */
const retrySchedule = z
  .string()
  .transform((value, ctx) => {
    const delays = value.split(",").map((part) => {
      const match = /^(\d+)(ms|s|m|h)$/.exec(part.trim());
      return match ? Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS] : NaN;
    });
    if (delays.some(Number.isNaN)) ctx.addIssue({ code: "custom", message: 'must be delays like "5s,5m,30m,2h" (units ms, s, m, h)' });
    else if (delays.some((ms) => ms > MAX_RETRY_DELAY_MS))
      ctx.addIssue({ code: "custom", message: "each delay must be at most 7 days (168h)" });
    return delays;
  })
  .prefault("5s,5m,30m,2h");

/** Hosts, IP addresses or CIDR ranges that webhooks may reach although they are private or loopback. */
const callbackAllowlist = z
  .string()
  .transform((value, ctx) => {
    const entries = value
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    const cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
    const hosts: string[] = [];
    for (const entry of entries) {
      if (!entry.includes("/")) hosts.push(entry);
      else if (ipaddr.isValidCIDR(entry)) cidrs.push(ipaddr.parseCIDR(entry));
      else ctx.addIssue({ code: "custom", message: `${JSON.stringify(entry)} is not a CIDR range like 10.0.0.0/8` });
    }
    return { hosts, cidrs };
  })
  .prefault("");

/** An IANA time zone name the runtime knows ("Europe/Berlin"), canonicalised; the business day's zone. */
const timeZone = z
  .string()
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value.trim());
    if (!zone)
      ctx.addIssue({
        code: "custom",
        message: `${JSON.stringify(value)} is not an IANA time zone name like "Europe/Berlin", "America/New_York" or "UTC"`,
      });
    return zone ?? DEFAULT_TIME_ZONE;
  })
  .prefault(DEFAULT_TIME_ZONE);

const envSchema = z.object({
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .superRefine((url, ctx) => {
      const ssl = sslModeOf(url);
      if ("error" in ssl) ctx.addIssue({ code: "custom", message: ssl.error });
    })
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1_000).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0, { error: "must be 0 (no limit) or more milliseconds" })
    .max(3_600_000)
    .default(30_000),
  INVOICING_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  INVOICING_API_KEY: z.string().min(1).optional(),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters (try: openssl rand -base64 32)" }).optional(),
  ADMIN_EMAIL: z.email().optional(),
  SANDBOX_ENABLED: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
  ADMIN_PASSWORD: z.string().min(12, { error: "must be at least 12 characters" }).optional(),
  SANDBOX_WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  HEALTH_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  SANDBOX_CALLBACK_ALLOWLIST: callbackAllowlist,
  SANDBOX_RATES_LIMIT: z.coerce.number().int().min(1).max(100_000).default(60),
  RATES_TTL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
  // Past-rates lookups sent to the provider a minute: per person, and for everyone (below its GET /rates limit).
  RATES_HISTORY_PER_PERSON: z.coerce.number().int().min(1).max(10_000).default(20),
  RATES_HISTORY_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  WEBHOOK_SECRET: z
    .string()
    .trim()
    .refine(isWebhookSecret, {
      error: "must be a Standard Webhooks secret: whsec_ followed by base64 (the provider shows it beside the callback URL)",
    })
    .optional(),
  WEBHOOK_INBOX_MAX_ENTRIES: z.coerce.number().int().min(10).max(100_000).default(500),
  WEBHOOK_INBOX_MAX_BODY_BYTES: z.coerce.number().int().min(1_024).max(1_048_576).default(65_536),
  WEBHOOK_INBOX_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
  EXPORT_MAX_PER_PERSON: z.coerce.number().int().min(1).max(100).default(2),
  EXPORT_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(6),
  UPSTREAM_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(16),
  SANDBOX_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(8),
  SEARCH_SYNC_SECONDS: z.coerce.number().int().min(0, { error: "must be 0 (no sync) or more seconds" }).max(86_400).default(60),
  // The ceiling of the mirror's pace (lib/console/mirror/pace.ts): it adapts below it to how the provider answers.
  SEARCH_SYNC_PAGES_PER_SECOND: z.coerce.number().min(0.1).max(100).default(50),
  CONSOLE_TIME_ZONE: timeZone,
  APPROVAL_TTL_HOURS: z.coerce.number().int().min(1).max(8_760).default(72),
  // Unset or empty: the activity log keeps every entry. Otherwise entries older than this many days are removed daily.
  AUDIT_RETENTION_DAYS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(36_500).optional()),
  INVITE_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(72),
  RESET_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be a URL like smtp://user:pass@host:587 or smtps://…" }).optional(),
  SMTP_FROM: z.string().trim().min(3).default("Invoice Console <no-reply@localhost>"),
});

/** "admin,finance": roles that must sign in with a second factor; set but empty: none. */
const requiredRoles = z.string().transform((value, ctx) => {
  const roles = value
    .split(",")
    .map((role) => role.trim())
    .filter(Boolean);
  const unknown = roles.filter((role) => !isRole(role));
  if (unknown.length) ctx.addIssue({ code: "custom", message: `${unknown.join(", ")}: not a role (admin, support, finance, viewer)` });
  return roles.filter(isRole);
});

/** The demo merchant's webhook secret (ARCHITECTURE.md §3.1): the inbox's default on the embedded sandbox. */
export const SANDBOX_DEMO_WEBHOOK_SECRET = "whsec_aW52b2ljZS1jb25zb2xlLWRlbW8tc2VjcmV0IQ==";

function isWebhookSecret(value: string): boolean {
  try {
    new Webhook(value);
    return value.replace(/^whsec_/, "").length >= 8;
  } catch {
    return false;
  }
}

export type Env = {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL (DATABASE_URL) only: connections per process, and how long one statement may run before the
   * server cancels it (0: no limit; migrations run without it). TLS comes from the URL's sslmode
   * (./db/postgres-connection.ts).
   */
  database: { poolMax: number; statementTimeoutMs: number };
  /** Base URL of the invoicing API the console talks to, without a trailing slash. */
  invoicingApiUrl: string;
  /**
   * The key sent in the Api-key header: INVOICING_API_KEY, or null on the embedded sandbox when it is unset —
   * then the console sends a key of its own, never one of the public demo keys (lib/platform/embedded-sandbox-key.ts).
   */
  invoicingApiKey: string | null;
  /** True when the console talks to the sandbox this app serves itself. */
  embeddedSandbox: boolean;
  /** Whether /sandbox/api/v1 answers at all: by default only when it is the console's upstream. */
  sandboxEnabled: boolean;
  upstreamTimeoutMs: number;
  /** Where people reach the console; decides whether session cookies are Secure. */
  publicUrl: string;
  /** Signs sessions; when unset, one is generated on first start and kept in the database. */
  authSecret: string | undefined;
  /** The first admin, created on start when both are set and no user has this email. */
  initialAdmin: { email: string; password: string } | undefined;
  /** Reverse proxies in front of the console whose X-Forwarded-* headers are believed (0: none). */
  trustedProxies: number;
  /** Lets a monitor read /api/health's details without a session (`Authorization: Bearer …`). */
  healthToken: string | undefined;
  /** The sandbox's webhooks: delays before each retry, and the private addresses they may reach. */
  webhooks: { retrySchedule: number[]; allowlist: z.infer<typeof callbackAllowlist> };
  /** GET /rates on the sandbox: requests a minute per API key. */
  sandboxRatesLimit: number;
  /** How long the console serves cached rates before asking upstream again (across all instances). */
  ratesTtlSeconds: number;
  /**
   * The console's own origin as the server reaches itself: PUBLIC_URL's, or http://127.0.0.1:PORT. The
   * sandbox sends the seeded invoices' webhooks to the inbox there.
   */
  consoleOrigin: string;
  /** The webhook inbox: the secret signatures are checked with (none: "not verified"), and its bounds. */
  inbox: { secret: string | undefined; maxEntries: number; maxBodyBytes: number; ratePerMinute: number };
  /** Exports streaming at once: per person, and in all (the next one is refused with a 429 and Retry-After). */
  exports: { perPerson: number; total: number };
  /**
   * Overload is shed, not queued: calls to the invoicing API and the sandbox's own work run at most this many
   * at once; as many again times four wait up to `maxWaitMs` for a slot, the rest get a 503 with Retry-After.
   */
  load: { upstreamConcurrency: number; sandboxConcurrency: number; maxWaitMs: number };
  /** The search index: seconds between incremental syncs (0: this instance never syncs), and the walks' pace. */
  search: { syncSeconds: number; pagesPerSecond: number };
  /**
   * The business time zone (CONSOLE_TIME_ZONE, default UTC): what a day is everywhere, unless a person chose
   * their own zone (lib/contract/time-zone.ts).
   */
  timeZone: string;
  /** How long a change waits for a second person's approval before it expires. */
  approvalTtlHours: number;
  /** Past-rates lookups a minute that reach the provider (lib/console/rates/lookup-budget.ts). */
  ratesHistoryBudget: { perPerson: number; shared: number };
  /** Days the activity log keeps its entries (lib/console/activity/retention.ts); undefined: forever. */
  auditRetentionDays: number | undefined;
  /** One-time links to choose a password (lib/console/auth/account-links.ts): how long each kind works. */
  links: { inviteTtlHours: number; resetTtlHours: number };
  /** Where those links are also emailed (SMTP_URL; none: they are only shown to the admin), and as whom. */
  mail: { smtpUrl: string | undefined; from: string };
  /**
   * Roles whose people must sign in with a second factor, unless an admin chose otherwise on the Users page:
   * admin against a real provider, none on the embedded sandbox (its demo signs in with one click).
   */
  twoFactorRequiredRoles: Role[];
};

/** The sandbox's well-known full-access test key (ARCHITECTURE.md §3.1). */
export const SANDBOX_FULL_ACCESS_KEY = "sk_test_demo_full";

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(emptyAsUnset(process.env));
  const server = readServerSettings(process.env);
  const problems = [...server.problems, ...(parsed.success ? [] : problemLines(parsed.error.issues))];
  if (!parsed.success || !server.settings) throw new Error(invalidConfiguration(problems));
  const e = { ...parsed.data, ...server.settings };
  if (e.INVOICING_API_URL && !e.INVOICING_API_KEY) {
    throw new Error(invalidConfiguration(["INVOICING_API_KEY: required when INVOICING_API_URL is set"]));
  }
  if (!!e.ADMIN_EMAIL !== !!e.ADMIN_PASSWORD) {
    throw new Error(invalidConfiguration(["ADMIN_EMAIL, ADMIN_PASSWORD: set both or neither"]));
  }
  const embeddedSandbox = !e.INVOICING_API_URL;
  // Read apart from the others: an empty value means "no role", not "unset".
  const rawRequired = process.env.TWO_FACTOR_REQUIRED_ROLES;
  const required = requiredRoles.safeParse(rawRequired ?? (embeddedSandbox ? "" : "admin"));
  if (!required.success) {
    throw new Error(invalidConfiguration([`TWO_FACTOR_REQUIRED_ROLES: ${required.error.issues.map((i) => i.message).join("; ")}`]));
  }
  cached = {
    port: e.port,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    database: { poolMax: e.DATABASE_POOL_MAX, statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS },
    invoicingApiUrl: (e.INVOICING_API_URL ?? `http://127.0.0.1:${e.port}/sandbox/api/v1`).replace(/\/+$/, ""),
    invoicingApiKey: e.INVOICING_API_KEY ?? null,
    embeddedSandbox,
    sandboxEnabled: e.SANDBOX_ENABLED ? e.SANDBOX_ENABLED === "true" : embeddedSandbox,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    publicUrl: (e.publicUrl ?? `http://localhost:${e.port}`).replace(/\/+$/, ""),
    authSecret: e.AUTH_SECRET,
    initialAdmin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD } : undefined,
    trustedProxies: e.trustedProxies,
    healthToken: e.HEALTH_TOKEN,
    webhooks: { retrySchedule: e.SANDBOX_WEBHOOK_RETRY_SCHEDULE, allowlist: e.SANDBOX_CALLBACK_ALLOWLIST },
    sandboxRatesLimit: e.SANDBOX_RATES_LIMIT,
    ratesTtlSeconds: e.RATES_TTL_SECONDS,
    ratesHistoryBudget: { perPerson: e.RATES_HISTORY_PER_PERSON, shared: e.RATES_HISTORY_PER_MINUTE },
    consoleOrigin: e.publicUrl ? new URL(e.publicUrl).origin : `http://127.0.0.1:${e.port}`,
    inbox: {
      secret: e.WEBHOOK_SECRET ?? (embeddedSandbox ? SANDBOX_DEMO_WEBHOOK_SECRET : undefined),
      maxEntries: e.WEBHOOK_INBOX_MAX_ENTRIES,
      maxBodyBytes: e.WEBHOOK_INBOX_MAX_BODY_BYTES,
      ratePerMinute: e.WEBHOOK_INBOX_RATE_LIMIT,
    },
    exports: { perPerson: e.EXPORT_MAX_PER_PERSON, total: e.EXPORT_MAX_CONCURRENCY },
    load: {
      upstreamConcurrency: e.UPSTREAM_MAX_CONCURRENCY,
      sandboxConcurrency: e.SANDBOX_MAX_CONCURRENCY,
      maxWaitMs: e.overloadMaxWaitMs,
    },
    search: { syncSeconds: e.SEARCH_SYNC_SECONDS, pagesPerSecond: e.SEARCH_SYNC_PAGES_PER_SECOND },
    timeZone: e.CONSOLE_TIME_ZONE,
    approvalTtlHours: e.APPROVAL_TTL_HOURS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    links: { inviteTtlHours: e.INVITE_TTL_HOURS, resetTtlHours: e.RESET_TTL_HOURS },
    mail: { smtpUrl: e.SMTP_URL, from: e.SMTP_FROM },
    twoFactorRequiredRoles: required.data,
  };
  return cached;
}
