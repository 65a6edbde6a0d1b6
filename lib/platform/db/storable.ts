/*
 * PostgreSQL's text, json and jsonb hold neither U+0000 nor half of a surrogate pair (what cutting text in the
 * middle of an emoji, or a crafted body, leaves). What people or providers sent is kept visible as U+FFFD instead:
 * a write must never fail on one character.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `value` with every string, and every key, storable. */
export function storable<T>(value: T): T {
  if (typeof value === "string") return value.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD") as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [storable(key), storable(v)])) as T;
  }
  return value;
}

/**
 * JSON.stringify writes exactly those characters as `\u0000` and `\udXXX` (a whole pair is written as itself), so
 * they are found in its text: an escape not itself escaped, i.e. after an even run of backslashes.
 */
const REFUSED_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;

/** `value` as JSON text PostgreSQL's json and jsonb accept: storable, without a second walk of the value. */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes("\\u") ? text.replace(REFUSED_ESCAPE, "$1\\ufffd") : text;
}
