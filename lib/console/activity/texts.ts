import "server-only";
import { or, type SQL, sql } from "drizzle-orm";
import { auditLog, auditTextLocator, auditTexts } from "@/lib/console/schema";
import type { Db } from "@/lib/platform/db";

/*
 * The text filter `q` (text in an entry's reason or comment) at size. console.audit_texts (drizzle/0022) holds every
 * distinct pair of texts once, lowercased, with how many entries hold it: the filter's exact count reads those rows
 * instead of every entry, and when few entries match, their texts' locators find them through audit_log_text_idx.
 */

/** The LIKE pattern for text anywhere in a value: `%`, `_` and `\` in the text match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The filter on the log itself: ILIKE on the entry's reason or comment. */
export function textCondition(text: string): SQL {
  const pattern = containsPattern(text);
  return or(sql`${auditLog.detail}->>'reason' ilike ${pattern}`, sql`${auditLog.detail}->>'comment' ilike ${pattern}`)!;
}

export type TextMatches = {
  /** Entries whose reason or comment holds the text: exact. */
  n: number;
  /** Their texts' locators, when there are at most `maxLocators` distinct texts; otherwise null. */
  locators: string[] | null;
};

/**
 * How many entries hold the text, from the distinct texts. `a ILIKE p` is `lower(a) LIKE lower(p)` (PostgreSQL
 * compares that way under every multi-byte encoding, and character by character the same way under single-byte
 * ones), and the texts are stored lowercased by the same lower(): the count is the log's own.
 */
export async function textMatches(db: Db, text: string, maxLocators: number): Promise<TextMatches> {
  const pattern = sql`lower(${containsPattern(text)})`;
  const result = (await db.execute(sql`
    select coalesce(sum(${auditTexts.n}), 0)::text as n,
      case when count(*) <= ${maxLocators} then coalesce(string_agg(${auditTexts.locator}::text, ','), '') end as locators
    from ${auditTexts}
    where ${auditTexts.reasonLower} like ${pattern} or ${auditTexts.commentLower} like ${pattern}`)) as unknown as {
    rows: { n: string; locators: string | null }[];
  };
  const [row] = result.rows;
  return { n: Number(row.n), locators: row.locators === null ? null : row.locators.split(",").filter(Boolean) };
}

/** Entries whose texts have one of these locators (several texts may share one: the text filter still applies). */
export function locatedBy(locators: string[]): SQL {
  return sql`${auditTextLocator(auditLog.detail)} = any(${`{${locators.join(",")}}`}::bigint[])`;
}
