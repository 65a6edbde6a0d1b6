import "server-only";
import { timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { InboxVerdict } from "@/lib/contract";

/** Standard Webhooks' tolerance: a message signed longer ago (or further ahead) than this is refused. */
export const TIMESTAMP_TOLERANCE_S = 5 * 60;

export type Verification = { verdict: Exclude<InboxVerdict, "replayed">; reason: string; messageId: string | null };

/** The three headers, under Standard Webhooks' names or Svix's (the same scheme). */
export function signatureHeaders(headers: Headers): { id: string | null; timestamp: string | null; signature: string | null } {
  return {
    id: headers.get("webhook-id") ?? headers.get("svix-id"),
    timestamp: headers.get("webhook-timestamp") ?? headers.get("svix-timestamp"),
    signature: headers.get("webhook-signature") ?? headers.get("svix-signature"),
  };
}

/**
 * The verdict on one request's Standard Webhooks signature with `secret`: valid, invalid (tampered, another
 * secret, broken headers), too old (signed correctly, but outside the 5-minute tolerance), or not verified (no
 * such signature at all — another provider's scheme — or no secret to check it with). Replays are the inbox's
 * to tell, since only it remembers ids.
 */
export function verifySignature(secret: string | undefined, headers: Headers, body: Buffer, now: Date = new Date()): Verification {
  const { id, timestamp, signature } = signatureHeaders(headers);
  const messageId = id ? id.slice(0, 200) : null;
  if (!id && !timestamp && !signature) {
    return {
      verdict: "not_verified",
      messageId,
      reason: "No Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature): another provider's scheme, or unsigned.",
    };
  }
  if (!secret)
    return {
      verdict: "not_verified",
      messageId,
      reason: "Signed, but WEBHOOK_SECRET is not set on this console, so the signature cannot be checked.",
    };
  if (!id || !timestamp || !signature) {
    const missing = [!id && "webhook-id", !timestamp && "webhook-timestamp", !signature && "webhook-signature"].filter(Boolean).join(", ");
    return { verdict: "invalid", messageId, reason: `Incomplete signature: ${missing} missing.` };
  }
  if (!/^\d{1,12}$/.test(timestamp)) return { verdict: "invalid", messageId, reason: "webhook-timestamp is not a Unix time in seconds." };

  const signedAt = new Date(Number(timestamp) * 1000);
  const expected = Buffer.from(new Webhook(secret).sign(id, signedAt, body).split(",")[1] ?? "", "base64");
  const matches = signature
    .split(" ")
    .filter((part) => part.startsWith("v1,"))
    .some((part) => {
      const given = Buffer.from(part.slice(3), "base64");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!matches) {
    return {
      verdict: "invalid",
      messageId,
      reason: "No v1 signature matches: the body or the id or timestamp was changed on the way, or another secret signed it.",
    };
  }
  const skew = Math.round((now.getTime() - signedAt.getTime()) / 1000);
  if (Math.abs(skew) > TIMESTAMP_TOLERANCE_S) {
    const minutes = Math.round(Math.abs(skew) / 60);
    return {
      verdict: "too_old",
      messageId,
      reason:
        skew > 0
          ? `Signed correctly, but ${minutes} min ago: more than 5 min old, so it may be a replay.`
          : `Signed correctly, but dated ${minutes} min in the future.`,
    };
  }
  return { verdict: "valid", messageId, reason: "Signature valid: signed with the secret, within 5 min." };
}
