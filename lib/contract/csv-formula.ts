/*
 * Formula injection in CSV files (OWASP "CSV injection"), for every cell, not only its first character.
 *
 * A spreadsheet runs a cell as a formula when it starts — after spaces — with = + - @, a tab or a carriage
 * return. It does not always split a file where we put commas: in many European locales it splits on `;`,
 * and people paste cells that split on tabs and lines. So a cell of ours is safe only when every part it
 * could be cut into is: the text at its start and after each `;`, `,`, tab, CR or LF.
 *
 * neutraliseCsvCell adds one `'` to every such part that starts (after its spaces) with any number of `'`
 * and then a trigger; restoreCsvCell removes one `'` from every part that starts with one or more `'` and
 * then a trigger. Neither adds nor removes a separator, so the parts stay where they are, and
 * restoreCsvCell(neutraliseCsvCell(s)) === s for every string s: the archive import gets back exactly the
 * text the export was given — but for the characters csvTextCell writes as their code, which stay written so. The writer must still quote a cell with a separator in it (csvNeedsQuotes).
 * Numbers are not text: a caller passes amounts around these functions.
 */

import { BIDI_CONTROL, CONTROL_BUT_LINES } from "./bidi";

const SEPARATOR = /([;,\t\r\n])/;
/** A part's spaces (no separator is among them, split took those) and its leading quotes. */
const PART_HEAD = /^(\s*)('*)/;
const TRIGGER = /^[=+\-@\t\r]/;

/** Runs `change` on the head of every part a formula could start in; leaves the separators where they are. */
function eachPart(text: string, change: (spaces: string, quotes: string) => string | null): string {
  if (text === "") return text;
  const pieces = text.split(SEPARATOR);
  // Even indexes are parts, odd ones the separators between them.
  for (let i = 0; i < pieces.length; i += 2) {
    const part = pieces[i];
    const [head, spaces, quotes] = PART_HEAD.exec(part)!;
    // What follows the head: the part's next character, or — when the part ends there — the separator after it
    // (a tab or CR is itself a trigger at the start of a cell).
    const next = part.length > head.length ? part[head.length] : (pieces[i + 1] ?? "");
    if (!TRIGGER.test(next)) continue;
    const changed = change(spaces, quotes);
    if (changed !== null) pieces[i] = changed + part.slice(head.length);
  }
  return pieces.join("");
}

/** The cell with a `'` before the formula trigger of each of its parts; text without one is returned as it is. */
export function neutraliseCsvCell(text: string): string {
  return eachPart(text, (spaces, quotes) => `${spaces}'${quotes}`);
}

/** The inverse of neutraliseCsvCell: one `'` less before each part's trigger. */
export function restoreCsvCell(text: string): string {
  return eachPart(text, (spaces, quotes) => (quotes ? spaces + quotes.slice(1) : null));
}

/** A written cell with a separator a spreadsheet may split on, a quote, or a neutralised trigger goes in quotes. */
export function csvNeedsQuotes(text: string): boolean {
  return /[;,\t\r\n"']/.test(text);
}

/**
 * What no reader of a CSV should meet raw: C0 controls but tab and line breaks (an ESC starts a terminal's escape
 * sequence), DEL, C1 controls, and the bidirectional controls that reorder the rest of a line (./bidi.ts).
 */
const UNSAFE = new RegExp(`${CONTROL_BUT_LINES.source}|${BIDI_CONTROL.source}`, "gu");

/** Each unsafe character written as its code point, "<U+001B>": the text stays readable and nothing vanishes silently. */
export function showUnsafeCharacters(text: string): string {
  return text.replace(UNSAFE, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`);
}

/** A text cell as the exports write it: unsafe characters shown by their code, then neutralised against formulas. */
export function csvTextCell(text: string): string {
  return neutraliseCsvCell(showUnsafeCharacters(text));
}
