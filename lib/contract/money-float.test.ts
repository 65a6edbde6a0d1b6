import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * An amount is never a float. Outside lib/contract/money.ts nothing in lib/, components/ or app/
 * may apply `Number(…)`, `parseFloat(…)` (or `Number.parseFloat`, `parseInt`) or a unary `+` to an expression
 * naming an amount, fiat, crypto, rate or total. A hit fails with its file, line and text; ALLOWED lists the
 * few uses that are not money, each with why.
 */

const ROOT = path.resolve(__dirname, "../..");
const SCANNED = ["lib", "components", "app"];
/** Words of an identifier (camelCase and snake_case split) that name money. */
const MONEY_WORD = /^(amount|amounts|fiat|crypto|rate|rates|total|totals)$/i;

/** file → substrings of lines that may match, and why. */
const ALLOWED: Record<string, { line: string; why: string }[]> = {
  "lib/contract/money.ts": [
    { line: "", why: "the money module itself: the one place decimals are read and (for a chart) turned into numbers" },
  ],
  "components/invoices/export/export-download.tsx": [
    { line: "Number(response.headers.get(EXPORT_TOTAL_HEADER)", why: "the export's total of rows, a count" },
  ],
};

const CALL = /\b(?:Number\.parseFloat|Number\.parseInt|parseFloat|parseInt|Number)\s*\(/g;
/** A unary plus (not `++`, not `+=`, not a binary plus after an operand) before an operand. */
const UNARY_PLUS = /(?:^|[=(,:?!&|[{;]|\breturn|=>)\s*\+(?![+=])\s*([\w$.?[\]"'()]+)/g;

function identifierWords(text: string): string[] {
  return (text.match(/[A-Za-z_$][\w$]*/g) ?? []).flatMap((id) => id.split(/_|(?<=[a-z0-9])(?=[A-Z])/)).filter(Boolean);
}
const namesMoney = (expression: string) => identifierWords(expression).some((w) => MONEY_WORD.test(w));

/** The text between the parenthesis at `open` and its match (or the rest of the source). */
function argumentAt(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === "(") depth++;
    else if (source[i] === ")" && --depth === 0) return source.slice(open + 1, i);
  }
  return source.slice(open + 1);
}

/** Every coercion of a money-named expression in `source`, as "line: text". */
function floatCoercions(source: string): { line: number; text: string }[] {
  const hits: { line: number; text: string }[] = [];
  const lineOf = (index: number) => source.slice(0, index).split("\n").length;
  const lines = source.split("\n");
  for (const m of source.matchAll(CALL)) {
    const open = m.index + m[0].length - 1;
    if (namesMoney(argumentAt(source, open))) hits.push({ line: lineOf(m.index), text: lines[lineOf(m.index) - 1].trim() });
  }
  for (const m of source.matchAll(UNARY_PLUS)) {
    if (namesMoney(m[1])) hits.push({ line: lineOf(m.index + m[0].length - 1), text: lines[lineOf(m.index + m[0].length - 1) - 1].trim() });
  }
  return hits;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

describe("no amount becomes a float", () => {
  it("finds the coercions it is looking for", () => {
    const sample = [
      "const a = Number(invoice.fiat_amount);",
      "const b = parseFloat(row.cryptoAmount ?? '0');",
      "const c = Number.parseFloat(payment.rate);",
      "const d = +view.rates[code];",
      "const e = (+totalEur).toFixed(2);",
      "const ok1 = Number(durationMs) + Number(separate) + count++ + x + totalEur;",
      "const ok2 = a += 1;",
    ].join("\n");
    expect(floatCoercions(sample).map((h) => h.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it("finds none in lib/, components/ and app/ outside the money module and the allow-list", () => {
    const offending: string[] = [];
    for (const file of SCANNED.flatMap(sourceFiles)) {
      const allowed = ALLOWED[file] ?? [];
      for (const hit of floatCoercions(readFileSync(path.join(ROOT, file), "utf8"))) {
        if (allowed.some((a) => hit.text.includes(a.line))) continue;
        offending.push(`${file}:${hit.line}: ${hit.text}`);
      }
    }
    expect(offending, `amounts turned into floats — use lib/contract/money.ts:\n${offending.join("\n")}`).toEqual([]);
  });
});
