import Papa from "papaparse";
import { EXPORT_INCOMPLETE, type ExportFormat } from "@/lib/contract";
import { restoreCsvCell } from "@/lib/contract/csv-formula";

/*
 * The browser's side of an export (components/invoices/export/export-download.tsx): rows counted as the bytes
 * arrive, and how the file ended. Both work on raw bytes: a line feed and a double quote never occur inside a
 * UTF-8 multi-byte character, so no chunk boundary can fool them.
 */

const LF = 0x0a;
const QUOTE = 0x22;

/**
 * Rows so far. CSV: records end at a line feed outside quotes (a quoted cell may hold newlines); the header is
 * not a row. JSON: one invoice a line between the `{"export":…,"items":[` line and the closing `],…` line.
 */
export function rowCounter(format: ExportFormat) {
  let lines = 0;
  let quoted = false;
  let lineStart = true;
  let closingLine = false;
  return {
    push(chunk: Uint8Array): number {
      for (const byte of chunk) {
        if (format === "csv" && byte === QUOTE) quoted = !quoted;
        if (format === "json" && lineStart) closingLine = byte === 0x5d; // "]"
        lineStart = false;
        if (byte === LF && !quoted) {
          if (!closingLine) lines++;
          lineStart = true;
        }
      }
      return Math.max(0, lines - 1);
    },
  };
}

/** How the file ended, read from its last bytes: whole, or cut short by a provider failure with its message. */
export function exportEnding(tail: string, format: ExportFormat): { complete: true } | { complete: false; message: string } {
  if (format === "json") {
    const at = tail.lastIndexOf('\n],"complete":');
    if (at < 0) return { complete: false, message: "The file has no ending: the export was cut off." };
    try {
      const end = JSON.parse(`{${tail.slice(at + 3)}`) as { complete: boolean; error?: { detail?: string } };
      return end.complete ? { complete: true } : { complete: false, message: end.error?.detail ?? `${EXPORT_INCOMPLETE}.` };
    } catch {
      return { complete: false, message: "The file has no ending: the export was cut off." };
    }
  }
  const lastLine =
    tail
      .replace(/\r?\n$/, "")
      .split("\n")
      .at(-1) ?? "";
  if (!lastLine.replace(/^"/, "").startsWith(EXPORT_INCOMPLETE)) return { complete: true };
  const [cell] = Papa.parse<string[]>(lastLine).data[0] ?? [lastLine];
  // The export neutralised the message like any cell (lib/contract/csv-formula.ts): shown as it was.
  return { complete: false, message: restoreCsvCell(cell) };
}
