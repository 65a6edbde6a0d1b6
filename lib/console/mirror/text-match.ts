import "server-only";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { searchInvoices as t } from "@/lib/console/schema";

/*
 * What a text typed in the search palette or a view's `q` finds in the mirror, one condition a kind, each served
 * by its own index (drizzle/0007, 0026): the order id (exact or its start), the invoice id (exact or its tail), and the
 * words of the order name and of the order id. Prefixes count from two characters: a single one would match
 * nearly every row, and is taken whole.
 */

/** A bare UUID or another id's tail finds the invoice when at least this long (shorter would match many). */
const ID_SUFFIX_MIN = 8;
/** Shorter than this, what was typed is matched whole, never as the start of something. */
const PREFIX_MIN = 2;

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const reverse = (text: string) => [...text].reverse().join("");

/**
 * Letters and digits of what was typed, as a tsquery: the last word, still being typed, is a prefix ("blue moo"
 * finds "Blue moon lamp"); a word followed by more was typed whole — "ORD-26" must not read every order id's
 * "ord…" as a prefix, the most common word there is.
 */
export function wordsQuery(q: string): string | null {
  const words = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
  if (!words.length) return null;
  const lastIsTyping = /[\p{L}\p{N}]$/u.test(q.trim());
  return words
    .map((word, i) => (i === words.length - 1 && lastIsTyping && [...word].length >= PREFIX_MIN ? `${word}:*` : word))
    .join(" & ");
}

/** `vector` (a tsvector) holds what `query` (a wordsQuery) asks for. */
export const vectorMatches = (vector: SQLWrapper, query: string): SQL => sql`${vector} @@ to_tsquery('simple', ${query})`;

export type TextMatch = { orderId: SQL; orderIdPrefix: SQL; invoiceId: SQL; words: SQL };

/** The conditions for `raw` (trimmed, any case; a short id's leading ellipsis, as the tables show it, left out). */
export function textMatch(raw: string): TextMatch {
  const q = raw
    .trim()
    .replace(/^(?:…|\.{3})/u, "")
    .trim()
    .toLowerCase();
  const words = wordsQuery(q);
  return {
    orderId: sql`lower(${t.orderId}) = ${q}`,
    orderIdPrefix: [...q].length >= PREFIX_MIN ? sql`lower(${t.orderId}) like ${`${likeEscape(q)}%`}` : sql`lower(${t.orderId}) = ${q}`,
    // Both through the reversed-id index: a whole id is also a tail of itself.
    invoiceId:
      q.length >= ID_SUFFIX_MIN
        ? sql`reverse(lower(${t.invoiceId})) like ${`${likeEscape(reverse(q))}%`}`
        : sql`reverse(lower(${t.invoiceId})) = ${reverse(q)}`,
    words: words ? vectorMatches(t.searchVector, words) : sql`false`,
  };
}

/** Any of them: what a view's `q` selects. */
export function anyTextMatch(raw: string): SQL {
  const m = textMatch(raw);
  return sql`(${m.orderIdPrefix} or ${m.invoiceId} or ${m.words})`;
}
