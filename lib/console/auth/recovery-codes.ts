import "server-only";
import { randomInt } from "node:crypto";

/*
 * Recovery codes people can read off paper and type: Crockford's base32 (no I, L, O or U to mistake), upper case,
 * two groups of five ("7K3QD-M9TXA": 50 bits each). What is typed is read the way Crockford reads it: any case,
 * O for 0, I and L for 1, with or without the dash or spaces.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const AMOUNT = 10;

/** Ten new codes, for better-auth's two-factor plugin to encrypt and keep (`customBackupCodesGenerate`). */
export function newRecoveryCodes(): string[] {
  const group = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return Array.from({ length: AMOUNT }, () => `${group()}-${group()}`);
}

/** A typed code written as the codes are ("7k3qd m9txa" → "7K3QD-M9TXA"), or null when it cannot be one of them. */
export function recoveryCodeAsWritten(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (!/^[0-9A-HJKMNP-TV-Z]{10}$/.test(plain)) return null;
  return `${plain.slice(0, 5)}-${plain.slice(5)}`;
}
