import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuth } from "./server";

/*
 * Values the console hands out and takes back signed with its secret (better-auth's): a device cookie, a passkey
 * challenge. Each kind signs under its own purpose, so no value of one kind, nor one of better-auth's cookies,
 * passes for another.
 */

const secret = async () => (await (await getAuth()).$context).secret;
const mac = (purpose: string, payload: string, key: string) => createHmac("sha256", key).update(`${purpose}\0${payload}`).digest();

/** `payload`'s signature for `purpose`, in base64url (43 characters). */
export async function signValue(purpose: string, payload: string): Promise<string> {
  return mac(purpose, payload, await secret()).toString("base64url");
}

/**
 * Whether `signature` is `payload`'s for `purpose`, compared in constant time. Only the one spelling signValue
 * gives is taken: base64url decoding forgives padding, whitespace and spare bits, and a variant that decoded to
 * the same bytes would make a signed value seem new to whatever remembers values by their text.
 */
export async function signedBy(purpose: string, payload: string, signature: string): Promise<boolean> {
  const expected = mac(purpose, payload, await secret());
  const given = Buffer.from(signature, "base64url");
  return given.length === expected.length && given.toString("base64url") === signature && timingSafeEqual(given, expected);
}
