import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

/** RFC 6238 as better-auth's two-factor plugin uses it: 6 digits, 30-second steps, HMAC-SHA1. */
export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
/** better-auth accepts the step before and after the current one too (a clock a little off). */
const WINDOW = 1;

/** RFC 4226's code for one counter. better-auth keys the HMAC with the secret's UTF-8 bytes. */
function hotp(secret: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac("sha1", Buffer.from(secret, "utf8")).update(message).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** DIGITS).padStart(DIGITS, "0");
}

/**
 * The time step `code` belongs to, or null when it matches none in the window. The step, not just "valid", so
 * that an accepted step can be claimed once (./two-factor.ts refuses a replay with it).
 */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
  let found: number | null = null;
  // Every candidate is compared, so the time taken says nothing about which one matched.
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code))) found ??= step;
  }
  return found;
}
