"use client";

import { useQuery } from "@tanstack/react-query";
import { Download, FileUp } from "lucide-react";
import Link from "next/link";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Progress } from "@/components/ui/progress";
import { Select } from "@/components/ui/select";
import {
  type ArchiveCsv,
  type CsvRow,
  type DecimalSeparator,
  failureReport,
  invoiceCsv,
  type ReportLine,
  readArchiveCsv,
} from "@/lib/browser/archive/csv";
import { isAlreadyRecorded } from "@/lib/browser/archive/duplicate";
import { derivedDifference } from "@/lib/browser/archive/pricing";
import { recordedOrderIdsOptions } from "@/lib/browser/archive/recorded";
import { type SendOutcome, sendRows } from "@/lib/browser/archive/send-rows";
import { fetchJson } from "@/lib/browser/query/fetch-json";
import { currencyListOptions } from "@/lib/browser/query/invoices";
import { saveFile } from "@/lib/browser/save-file";
import { ARCHIVE_CSV_COLUMNS, archivedInvoiceRequestJson, type Invoice } from "@/lib/contract";
import { Problem, problemDetail } from "@/lib/contract/problem";
import { pointerToField } from "@/lib/contract/problem-to-fields";
import { checkCsvCurrencies } from "./archive-preview";
import { CsvPreview } from "./csv-preview";
import { useLeaveGuard } from "./use-leave-guard";

/** Requests a second to the console while importing: well under any provider's limit. */
const PER_SECOND = 5;

/** `flag`: a recorded row whose derived amount is not the file's (the provider's answer against the file). */
type Result = { row: CsvRow; outcome: SendOutcome<Invoice>; flag: string | null };

function flagOf(row: CsvRow, outcome: SendOutcome<Invoice>): string | null {
  if (outcome.kind !== "created" || !row.pricing) return null;
  return derivedDifference(row.pricing, outcome.value)?.message ?? null;
}
type Phase = "idle" | "checked" | "sending" | "done";

async function sendOne(row: CsvRow): Promise<SendOutcome<Invoice> & { retryAfterSeconds?: number; unknownOutcome?: boolean }> {
  try {
    const invoice = await fetchJson("/api/archived", (c) => c.invoiceSchema, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // Amounts are decimal strings after the check; sent as JSON numbers with their digits.
      body: archivedInvoiceRequestJson(row.body!),
    });
    return { kind: "created", value: invoice };
  } catch (error) {
    const problem = error instanceof Problem ? error : Problem.of("network_error", { title: "No answer" });
    if (isAlreadyRecorded(problem))
      return { kind: "already_recorded", message: problem.errors?.[0]?.detail ?? problem.detail ?? "already recorded" };
    const errors = (problem.errors ?? []).map((e) => ({ field: pointerToField(e.pointer) ?? "row", message: e.detail }));
    return {
      kind: "failed",
      status: problem.status,
      message: problemDetail(problem),
      errors,
      ...(problem.status === 429 ? { retryAfterSeconds: Math.min(Number(problem.headers["retry-after"]) || 10, 120) } : {}),
      ...(problem.status === 504 || problem.status === 0 ? { unknownOutcome: true } : {}),
    };
  }
}

const saveCsv = (name: string, text: string) => saveFile(new Blob([text], { type: "text/csv;charset=utf-8" }), name);

/**
 * Finance records many archived invoices at once: a CSV with the invoice columns, every row checked before
 * anything is sent, the valid rows sent one by one at a bounded rate with a progress bar, and a report of
 * what failed and why. The order id is the key: uploading the same file again records nothing twice.
 */
export function CsvImport() {
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [file, setFile] = useState<{ name: string; text: string; csv: ArchiveCsv } | null>(null);
  const [separator, setSeparator] = useState<DecimalSeparator>(".");
  const [phase, setPhase] = useState<Phase>("idle");
  const [results, setResults] = useState<Result[]>([]);
  const leaveDialog = useLeaveGuard(phase === "checked" || phase === "sending", "The import");

  // The provider's currencies, as the single form loads them: a row with another code is a problem before sending.
  const currencies = useQuery(currencyListOptions()).data?.currencies.map((c) => c.code) ?? null;
  const checked = file ? checkCsvCurrencies(file.csv, currencies) : null;
  const rows = checked?.rows ?? [];
  const checkedValid = rows.filter((r) => r.body);
  const invalid = rows.filter((r) => !r.body);
  // Rows whose order the console already knows are said before sending, and not sent.
  const recordedCheck = useQuery({ ...recordedOrderIdsOptions(checkedValid.map((r) => r.body!.order_id)), enabled: phase === "checked" });
  const recorded = phase === "checked" ? (recordedCheck.data ?? null) : null;
  const [known, setKnown] = useState<CsvRow[]>([]);
  const alreadyKnown = recorded ? checkedValid.filter((r) => recorded.has(r.body!.order_id)) : known;
  const valid = checkedValid.filter((r) => !alreadyKnown.includes(r));
  const checking = phase === "checked" && checkedValid.length > 0 && recordedCheck.isPending;

  async function choose(chosen: File | undefined) {
    if (!chosen) return;
    const text = await chosen.text();
    // Emptied once read, so choosing the same file again (fixed in the meantime) reads it again.
    if (input.current) input.current.value = "";
    setFile({ name: chosen.name, text, csv: readArchiveCsv(text, separator) });
    setResults([]);
    setPhase("checked");
  }

  /** The same file read again with the other separator: every row is checked anew before anything is sent. */
  function chooseSeparator(next: DecimalSeparator) {
    setSeparator(next);
    if (file && phase === "checked") setFile({ ...file, csv: readArchiveCsv(file.text, next) });
  }

  async function send() {
    const controller = new AbortController();
    abort.current = controller;
    setKnown(alreadyKnown);
    setPhase("sending");
    setResults([]);
    await sendRows(valid, sendOne, (row, outcome) => setResults((r) => [...r, { row, outcome, flag: flagOf(row, outcome) }]), {
      perSecond: PER_SECOND,
      signal: controller.signal,
    });
    abort.current = null;
    setPhase("done");
  }

  const created = results.filter((r) => r.outcome.kind === "created").length;
  const already = alreadyKnown.length + results.filter((r) => r.outcome.kind === "already_recorded").length;
  const failedSends = results.filter((r) => r.outcome.kind === "failed");
  const flaggedResults = results.filter((r) => r.flag);
  const report: ReportLine[] = [
    ...invalid.flatMap((row) =>
      row.problems.map((p) => ({
        line: row.line,
        order_id: row.order_id,
        outcome: "not sent: invalid",
        field: p.field,
        message: p.message,
      })),
    ),
    ...failedSends.flatMap(({ row, outcome }) => {
      const o = outcome as Extract<SendOutcome<Invoice>, { kind: "failed" }>;
      return o.errors.length
        ? o.errors.map((e) => ({
            line: row.line,
            order_id: row.order_id,
            outcome: `refused (HTTP ${o.status})`,
            field: e.field,
            message: e.message,
          }))
        : [
            {
              line: row.line,
              order_id: row.order_id,
              outcome: o.status ? `refused (HTTP ${o.status})` : "no answer",
              field: "",
              message: o.message,
            },
          ];
    }),
    // Recorded, but not as the file says: listed so the person can check them.
    ...flaggedResults.map(({ row, flag }) => ({
      line: row.line,
      order_id: row.order_id,
      outcome: "recorded, flagged",
      field: row.pricing!.derived,
      message: flag!,
    })),
  ].sort((a, b) => Number(a.line) - Number(b.line));
  const reportRows = new Set(report.map((r) => r.line)).size;
  const progress = valid.length ? Math.round((results.length / valid.length) * 100) : 0;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2 text-sm text-muted-foreground">
        <p>
          A CSV with a header row and the invoice columns (the same as the export). These are sent:{" "}
          <span className="font-mono text-xs text-foreground">{ARCHIVE_CSV_COLUMNS.join(", ")}</span>; any other column is ignored. Each row
          needs an order id, a currency and an amount.
        </p>
        <p>
          Only one amount is sent: the one <span className="font-mono text-xs">priced_in</span> names (
          <span className="font-mono text-xs">fiat</span> or <span className="font-mono text-xs">crypto</span>, as the export writes it);
          with both amounts and no priced_in, the EUR amount. The provider derives the other at its rate for the invoice&apos;s created_at.
          Where the file has a <span className="font-mono text-xs">payment_rate</span>, the preview works the derived amount out and flags a
          row where it differs from the file&apos;s.
        </p>
        <p>Rows already recorded (same order id) are skipped, so a file can be uploaded again safely.</p>
        <p>
          Amounts are read with the decimal separator chosen below, with every digit the file holds. A number written otherwise (
          <span className="font-mono text-xs">1,234</span> in a file set to points, a thousands separator, a currency sign) is listed as a
          problem, never guessed at.
        </p>
      </div>

      <div className="flex flex-wrap items-center gap-3">
        {/* Out of sight and out of the Tab order: the button below opens it, with a focus ring of its own. */}
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          className="hidden"
          tabIndex={-1}
          aria-hidden
          id="archive-csv"
          onChange={(e) => void choose(e.target.files?.[0])}
          disabled={phase === "sending"}
        />
        <Button variant="primary" onClick={() => input.current?.click()} disabled={phase === "sending"}>
          <FileUp aria-hidden /> {file ? "Choose another file" : "Choose a CSV file"}
        </Button>
        <Button
          variant="ghost"
          onClick={() =>
            saveCsv(
              "archived-invoices-template.csv",
              invoiceCsv([
                {
                  order_id: "LEGACY-2025-0001",
                  order_name: "Example order",
                  fiat_amount: "49.90",
                  fiat_currency: "EUR",
                  currency: "BTC",
                  priced_in: "fiat",
                  created_at: "2025-01-15",
                },
              ]),
            )
          }
        >
          <Download aria-hidden /> Template
        </Button>
        {file && <span className="text-sm text-muted-foreground">{file.name}</span>}
        <Field label="Decimal separator in the file" className="ml-auto">
          <Select
            size="sm"
            value={separator}
            onChange={(e) => chooseSeparator(e.target.value as DecimalSeparator)}
            disabled={phase === "sending"}
            options={[
              { value: ".", label: "Point: 1234.50" },
              { value: ",", label: "Comma: 1234,50" },
            ]}
          />
        </Field>
      </div>

      {file && (file.csv.missingColumns.length > 0 || file.csv.fileProblems.length > 0) && (
        <div role="alert" className="rounded-md border border-danger-text/40 bg-danger/10 px-3 py-2 text-sm text-danger-text">
          {file.csv.missingColumns.length > 0 && (
            <p className="font-medium">
              The file lacks the column{file.csv.missingColumns.length > 1 ? "s" : ""} {file.csv.missingColumns.join(", ")}. Nothing can be
              sent.
            </p>
          )}
          {file.csv.fileProblems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      )}

      {file && rows.length > 0 && (
        <section aria-labelledby="csv-check" className="flex flex-col gap-3">
          <h3 id="csv-check" className="text-sm font-semibold">
            Checked {rows.length} rows: {checking ? checkedValid.length : valid.length} ready
            {alreadyKnown.length > 0 && `, ${alreadyKnown.length} already recorded`}, {invalid.length} with problems
          </h3>
          {checking && (
            <p role="status" className="text-sm text-muted-foreground">
              Checking which orders are already recorded…
            </p>
          )}
          {phase === "checked" && recordedCheck.isError && (
            <p role="status" className="text-sm text-muted-foreground">
              Could not check which orders are already recorded ({problemDetail(recordedCheck.error as Problem)}); the provider refuses
              those rows when they are sent, and the report lists them.
            </p>
          )}
          {alreadyKnown.length > 0 && <AlreadyRecorded rows={alreadyKnown} />}
          {invalid.length > 0 && (
            <div className="overflow-x-auto rounded-md border border-border">
              <table className="w-full text-sm" aria-label="Rows with problems">
                <thead className="bg-muted text-left text-xs text-muted-foreground">
                  <tr>
                    <th className="px-3 py-2 font-medium">Line</th>
                    <th className="px-3 py-2 font-medium">Order id</th>
                    <th className="px-3 py-2 font-medium">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {invalid.map((row) => (
                    <tr key={row.line} className="border-t border-border align-top">
                      <td className="px-3 py-2 tabular-nums">{row.line}</td>
                      {/* Whole on one line, unless too long to be one (which may be the row's problem). */}
                      <td
                        className={`px-3 py-2 font-mono text-xs ${(row.order_id?.length ?? 0) > 24 ? "min-w-[24ch] [overflow-wrap:anywhere]" : "whitespace-nowrap"}`}
                      >
                        {row.order_id || "—"}
                      </td>
                      <td className="px-3 py-2">{row.problems.map((p) => `${p.field}: ${p.message}`).join("; ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {phase === "checked" && valid.length > 0 && <CsvPreview rows={valid} />}
          {phase === "checked" && (
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="primary" onClick={() => void send()} disabled={valid.length === 0 || checking}>
                Record {valid.length} archived invoice{valid.length === 1 ? "" : "s"}
              </Button>
              {invalid.length > 0 && (
                <span className="text-sm text-muted-foreground">
                  Rows with problems are not sent; fix them in the file and upload it again.
                </span>
              )}
            </div>
          )}
        </section>
      )}

      {(phase === "sending" || phase === "done") && (
        <section aria-labelledby="csv-progress" className="flex flex-col gap-3">
          <h3 id="csv-progress" className="text-sm font-semibold">
            {phase === "sending"
              ? `Recording… ${results.length} of ${valid.length}`
              : `Import finished: ${results.length} of ${valid.length} rows sent`}
          </h3>
          <Progress value={progress} label="Import progress" />
          <p className="text-sm" data-testid="import-summary" aria-live="polite">
            {created} recorded{flaggedResults.length > 0 && ` (${flaggedResults.length} flagged)`} · {already} already recorded ·{" "}
            {failedSends.length + invalid.length} failed
            {phase === "done" && created > 0 && (
              <>
                {" · "}
                {/* Recorded just now: the newest changes among the archived ones. */}
                <Link
                  href="/invoices?status=archived&sort_by=updated_at&sort_order=desc"
                  className="font-medium underline underline-offset-2"
                >
                  See them in the invoice list
                </Link>
              </>
            )}
          </p>
          {flaggedResults.length > 0 && (
            <ul
              aria-label="Recorded rows flagged"
              className="flex flex-col gap-1 rounded-md border border-warning-border bg-warning-muted px-3 py-2 text-sm text-warning-text"
            >
              {flaggedResults.map(({ row, flag }) => (
                <li key={row.line}>
                  Line {row.line}, <span className="font-mono text-xs">{row.order_id}</span>: {flag}
                </li>
              ))}
            </ul>
          )}
          {phase === "sending" && (
            <div>
              <Button onClick={() => abort.current?.abort()}>Stop after this row</Button>
            </div>
          )}
        </section>
      )}

      {(phase === "done" || (phase === "checked" && invalid.length > 0)) && report.length > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => saveCsv(`${file?.name.replace(/\.csv$/i, "") ?? "import"}-failures.csv`, failureReport(report))}>
            <Download aria-hidden /> Download the report of {reportRows} {flaggedResults.length ? "failed or flagged" : "failed"} row
            {reportRows === 1 ? "" : "s"}
          </Button>
        </div>
      )}
      {leaveDialog}
    </div>
  );
}

/** Rows the console already has an invoice for: not sent, so a file uploaded again records nothing twice. */
function AlreadyRecorded({ rows }: { rows: CsvRow[] }) {
  return (
    <details className="rounded-md border border-border px-3 py-2 text-sm" data-testid="import-already-recorded">
      <summary className="cursor-pointer">
        {rows.length} row{rows.length === 1 ? " is" : "s are"} already recorded (same order id) and will not be sent
      </summary>
      <ul className="mt-2 flex flex-col gap-1">
        {rows.map((row) => (
          <li key={row.line}>
            Line {row.line}: <span className="font-mono text-xs">{row.order_id}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
