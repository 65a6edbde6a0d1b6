import { type FilterName, PAGES, type PageName } from "./bench-list-options";
import { ms, percentile } from "./kit";

// bench:list's output: the table of every combination, the summary by page, and the goals met or missed.

/** One sort, filter and page of the run. */
export type Combination = { sortBy: string; sortOrder: string; filter: FilterName; page: PageName };
/** Its page number, the filter's total, and the timings straight to the sandbox and through the console. */
export type Row = Combination & { number: number; total: number; direct: number[]; console: number[] };

export function label(c: Combination): string {
  return `${c.sortBy} ${c.sortOrder}${c.filter === "none" ? "" : ` ${c.filter}`} p${c.page}`;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export function printTable(rows: Row[]): void {
  const header = ["combination", "page", "total", "direct p50", "direct p95", "console p50", "console p95", "ratio"];
  const lines = rows.map((r) => {
    const d50 = percentile(r.direct, 50);
    const c50 = percentile(r.console, 50);
    return [
      label(r),
      String(r.number),
      r.total.toLocaleString("en"),
      ms(d50),
      ms(percentile(r.direct, 95)),
      ms(c50),
      ms(percentile(r.console, 95)),
      `${(c50 / d50).toFixed(2)}×`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(" | ");
  console.log(format(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const l of lines) console.log(format(l));
}

export function printSummary(rows: Row[]): void {
  const ratios = rows.map((r) => ({ r, ratio: median(r.console) / median(r.direct) }));
  const worstRatio = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const slowestDirect = rows.reduce((a, b) => (median(b.direct) > median(a.direct) ? b : a));
  const slowestConsole = rows.reduce((a, b) => (median(b.console) > median(a.console) ? b : a));
  console.log("");
  console.log(
    `Summary: median ratio ${median(ratios.map((x) => x.ratio)).toFixed(2)}× (console p50 / direct p50 over ${rows.length} combinations); ` +
      `worst ratio ${worstRatio.ratio.toFixed(2)}× at ${label(worstRatio.r)}; ` +
      `slowest direct ${label(slowestDirect)} (p50 ${ms(median(slowestDirect.direct))}); ` +
      `slowest via console ${label(slowestConsole)} (p50 ${ms(median(slowestConsole.console))}).`,
  );
  const slow = rows.filter((r) => median(r.direct) > 100);
  console.log(
    slow.length
      ? `Direct p50 over 100 ms: ${slow.map((r) => `${label(r)} (${ms(median(r.direct))})`).join("; ")}`
      : "No combination has a direct p50 over 100 ms.",
  );
}

/** The goals, per page kind: the worst direct p95, and the console's p50 ratio over all combinations. */
export function printGoals(rows: Row[]): void {
  console.log("");
  for (const page of PAGES) {
    const these = rows.filter((r) => r.page === page);
    if (!these.length) continue;
    const worst = these.reduce((a, b) => (percentile(b.direct, 95) > percentile(a.direct, 95) ? b : a));
    const goal = page === "middle" ? 60 : 15;
    console.log(
      `Page ${page}: worst direct p95 ${ms(percentile(worst.direct, 95))} at ${label(worst)} (goal ≤ ${goal} ms) over ${these.length} combinations`,
    );
  }
  const ratio = median(rows.flatMap((r) => r.console)) / median(rows.flatMap((r) => r.direct));
  console.log(`Console / direct: p50 of all console requests / p50 of all direct ones = ${ratio.toFixed(2)}× (goal ≤ 1.10×)`);
}
