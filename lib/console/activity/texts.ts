import "server-only";
import { and, or, type SQL, sql } from "drizzle-orm";
import { auditLog, auditTextCollisions, auditTextGrams, auditTexts } from "@/lib/console/schema";
import type { Db } from "@/lib/platform/db";

/*
 * The text filter `q` (text in an entry's reason or its decision's reason) at size. console.audit_texts (drizzle/0022) holds every
 * distinct pair of texts once, lowercased, with how many entries hold it: the filter's exact count sums the pairs
 * that match instead of reading every entry, and an entry's `text_locator` says which pair it holds, so the entries
 * of the matching pairs are found from an index.
 */

/** The LIKE pattern for text anywhere in a value: `%`, `_` and `\` in the text match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The filter on the log itself: ILIKE on the entry's reason or decision_reason (an approval's or rejection's). */
export function textCondition(text: string): SQL {
  const pattern = containsPattern(text);
  return or(sql`${auditLog.detail}->>'reason' ilike ${pattern}`, sql`${auditLog.detail}->>'decision_reason' ilike ${pattern}`)!;
}

/**
 * The pairs of texts that hold `text` as textCondition finds it. `a ILIKE p` is `lower(a) LIKE lower(p)`
 * (PostgreSQL compares that way under every multi-byte encoding, and character by character the same way under
 * single-byte ones), and the pairs are stored lowercased by the same lower(). A text of three characters or more
 * is first narrowed, through the GIN index, to the pairs that hold all its runs of three.
 */
function matchingTexts(text: string): SQL {
  const pattern = sql`lower(${containsPattern(text)})`;
  return and(
    [...text].length >= 3
      ? sql`${auditTextGrams(auditTexts.reasonLower, auditTexts.decisionReasonLower)} @> console.audit_text_grams(lower(${text}))`
      : undefined,
    or(sql`${auditTexts.reasonLower} like ${pattern}`, sql`${auditTexts.decisionReasonLower} like ${pattern}`),
  )!;
}

export type TextMatches = {
  /** Entries that hold the text: exact. */
  n: number;
  /** Distinct pairs of texts that hold it. */
  pairs: number;
  /** Their locators, when there are at most the number asked for. */
  locators: string[] | null;
};

/** How many entries hold the text (exact, from the pairs alone), and the pairs' locators when they are few. */
export async function textMatches(db: Db, text: string, maxLocators: number): Promise<TextMatches> {
  const [row] = await db
    .select({
      n: sql<string>`coalesce(sum(${auditTexts.n}), 0)::text`,
      pairs: sql<number>`count(*)::int`,
      locators: sql<
        string | null
      >`case when count(*) <= ${maxLocators} then coalesce(string_agg(${auditTexts.locator}::text, ','), '') end`,
    })
    .from(auditTexts)
    .where(matchingTexts(text));
  return { n: Number(row.n), pairs: Number(row.pairs), locators: row.locators === null ? null : row.locators.split(",").filter(Boolean) };
}

/**
 * Entries with one of these locators: every entry that holds one of their texts, and maybe a few that do not (two
 * texts may share a locator), so textCondition still decides. Found through audit_log_text_idx, a locator at a time.
 */
export function locatedBy(locators: string[]): SQL {
  return sql`${auditLog.textLocator} = any(${`{${locators.join(",")}}`}::bigint[])`;
}

/** The matching pairs' locators, as a query: gathered once into a hash, beside the other filters' index. */
export function matchingTextLocators(text: string): SQL {
  return sql`select ${auditTexts.locator} as locator from ${auditTexts} where ${matchingTexts(text)}`;
}

/**
 * Whether a locator alone says which pair of texts an entry holds: while no two distinct pairs have ever shared one
 * (console.audit_text_collisions), an entry whose locator is a matching pair's holds the text, and the entry itself
 * need not be read to make sure.
 */
export async function locatorsAreExact(db: Db): Promise<boolean> {
  const [row] = await db.select({ any: sql<boolean>`exists (select 1 from ${auditTextCollisions})` }).from(sql`(select 1) as one`);
  return !row.any;
}
