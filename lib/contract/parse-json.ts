import { parse as parseInJavaScript } from "lossless-json";

/*
 * JSON.parse, made safe from a V8 bug (Node 24 and 26, Chromium alike; https://github.com/nodejs/node/issues/63785):
 * once any object had a key holding a backslash, a later key at the same place written with an escape (`"\""`,
 * `"\n"`, `"\u0041"`) can be read back as that earlier key. Metadata keys are anyone's text, so a text with an
 * escaped key is read by lossless-json's parser instead, which is JavaScript; every other text by the native one.
 */

/** The value of JSON `text`, as JSON.parse gives it (a key given twice keeps its last value). */
export function parseJson(text: string): unknown {
  if (!hasEscapedKey(text)) return JSON.parse(text);
  return parseInJavaScript(text, null, { parseNumber: Number, onDuplicateKey: ({ newValue }) => newValue });
}

const BACKSLASH = 92;
const QUOTE = 34;

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
    while (next < text.length && /\s/.test(text[next] as string)) next++;
    if (text[next] === ":") return true;
    at = text.indexOf("\\", end + 1);
  }
  return false;
}
