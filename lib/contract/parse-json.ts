import { parse as parseInJavaScript } from "lossless-json";

/*
 * JSON.parse, made safe from a V8 bug (Node 24 and 26, Chromium alike; https://github.com/nodejs/node/issues/63785):
 * once any object had a key holding a backslash, a later key at the same place written with an escape (`"\""`,
 * `"\n"`, `"\u0041"`) can be read back as that earlier key. What providers and senders write (a provider's own
 * fields, a webhook's body, an error's) may have such keys, so a text with an escaped key is read by lossless-json's
 * parser instead, which is JavaScript; every other text by the native one.
 */

/** The value of JSON `text`, as JSON.parse gives it (a key given twice keeps its last value). */
export function parseJson(text: string): unknown {
  if (!hasEscapedKey(text)) return JSON.parse(text);
  try {
    return parseInJavaScript(text, null, { parseNumber: Number, onDuplicateKey: ({ newValue }) => newValue });
  } catch (error) {
    // That parser recurses: thousands of levels of nesting exhaust the stack, which no real document has.
    if (error instanceof RangeError) throw new SyntaxError("JSON nested too deeply to read");
    throw error;
  }
}

const BACKSLASH = 92;
const QUOTE = 34;
/** JSON's whitespace: space, tab, line feed, carriage return. */
const isJsonSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/**
 * True when a key of `text` holds an escape. One pass, from each backslash to the end of its string: in JSON a
 * backslash stands only inside a string, and a string followed by `:` is a key. Text that is not JSON may answer
 * either way; both parsers refuse it.
 */
export function hasEscapedKey(text: string): boolean {
  let at = text.indexOf("\\");
  while (at !== -1) {
    let end = at;
    while (end < text.length && text.charCodeAt(end) !== QUOTE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1;
    let next = end + 1;
    while (next < text.length && isJsonSpace(text.charCodeAt(next))) next++;
    if (text[next] === ":") return true;
    at = text.indexOf("\\", end + 1);
  }
  return false;
}
