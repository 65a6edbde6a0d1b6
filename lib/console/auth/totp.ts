import "server-only";
import { Secret, TOTP } from "otpauth";

/** RFC 6238 as better-auth's two-factor plugin uses it: 6 digits, 30-second steps, HMAC-SHA1. */
export const TOTP_PERIOD_SECONDS = 30;
/** better-auth accepts the step before and after the current one too (a clock a little off). */
const WINDOW = 1;

/**
 * The time step `code` belongs to, or null when it matches none in the window. The step, not just "valid", so
 * that an accepted step can be claimed once (./two-factor.ts refuses a replay with it). better-auth keys the HMAC
 * with the secret's UTF-8 bytes; otpauth compares codes in constant time.
 */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new TOTP({ secret: Secret.fromUTF8(secret), digits: 6, period: TOTP_PERIOD_SECONDS, algorithm: "SHA1" });
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}
