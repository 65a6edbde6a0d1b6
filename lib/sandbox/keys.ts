import "server-only";
import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { SANDBOX_FULL_ACCESS_KEY } from "@/lib/platform/env";
import { apiKeys } from "@/lib/sandbox/schema";

export const SCOPES = ["invoices:read", "invoices:write", "rates:read", "webhooks:write"] as const;
export type Scope = (typeof SCOPES)[number];

export const DEMO_MERCHANT_ID = "0190a1d2-0000-7000-8000-000000000001";
export const OTHER_MERCHANT_ID = "0190a1d2-0000-7000-8000-000000000002";

/** Well-known test keys, like stripe-mock's (ARCHITECTURE.md §3.1). Documented in the README and docs/sandbox.md. */
export const DEMO_KEYS = [
  { key: SANDBOX_FULL_ACCESS_KEY, name: "Demo full access", merchantId: DEMO_MERCHANT_ID, scopes: [...SCOPES] },
  { key: "sk_test_demo_readonly", name: "Demo read-only", merchantId: DEMO_MERCHANT_ID, scopes: ["invoices:read", "rates:read"] },
  { key: "sk_test_other_merchant", name: "Other merchant", merchantId: OTHER_MERCHANT_ID, scopes: [...SCOPES] },
] satisfies { key: string; name: string; merchantId: string; scopes: Scope[] }[];

/** The console's own key to its embedded sandbox: random and secret, so not listed above (lib/sandbox/seed.ts). */
export const CONSOLE_KEY_NAME = "Console (its own key)";

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export type Caller = { keyId: string; merchantId: string; scopes: readonly string[] };

const unauthorized = (detail: string) =>
  Problem.of("unauthorized", {
    title: "Missing or unknown API key",
    detail,
    headers: { "www-authenticate": 'Api-key realm="sandbox"' },
  });

/** The merchant behind an `Api-key` header, or 401. */
export async function authenticate(db: Db, header: string | null): Promise<Caller> {
  const key = header?.trim();
  if (!key) throw unauthorized("Send your key in the Api-key header.");
  const [row] = await db
    .select({ keyId: apiKeys.id, merchantId: apiKeys.merchantId, scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashKey(key)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) throw unauthorized("The Api-key header names no active key. Check for typos or use another key.");
  return row;
}

export function requireScope(caller: Caller, scope: Scope): void {
  if (!caller.scopes.includes(scope)) {
    throw Problem.of("insufficient_scope", {
      title: "This API key may not do that",
      detail: `The key lacks the ${scope} scope.`,
    });
  }
}
