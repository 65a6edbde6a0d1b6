import { describe, expect, it } from "vitest";
import { csvEncoder, exportStream, jsonEncoder } from "@/lib/console/invoices/export";
import { type Invoice, invoiceViewQuerySchema } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { exportEnding, rowCounter } from "./export-download";

const invoice = (i: number): Invoice => ({
  invoice_id: `inv-${i}`,
  order_id: `O-${i}`,
  order_name: i % 3 ? `line\nbreak "${i}", ☕` : "plain",
  status: "new",
  fiat_amount: String(i),
  fiat_currency: "EUR",
  crypto_amount: "0.1",
  currency: "BTC",
  allowed_error_percent: 1,
  callback_url: null,
  created_at: null,
  updated_at: null,
  expires_at: null,
  priced_in: null,
  payment: null,
  provider_fields: [],
});

async function fileBytes(format: "csv" | "json", pages: number, failAt?: number): Promise<Uint8Array> {
  async function* walk() {
    for (let p = 0; p < pages; p++) {
      if (p === failAt) throw Problem.of("upstream_timeout", { detail: "No answer within 10 s." });
      yield Array.from({ length: 7 }, (_, i) => invoice(p * 7 + i));
    }
  }
  const plan = { query: invoiceViewQuerySchema.parse({}), total: pages * 7, fileName: "f", pages: walk() };
  return new Uint8Array(await new Response(exportStream(plan, format === "csv" ? csvEncoder({ bom: true }) : jsonEncoder())).arrayBuffer());
}

/** The bytes in pieces of `size`, as a network might deliver them (splitting quotes, lines and characters). */
function countInPieces(bytes: Uint8Array, format: "csv" | "json", size: number): number[] {
  const counter = rowCounter(format);
  const seen: number[] = [];
  for (let at = 0; at < bytes.length; at += size) seen.push(counter.push(bytes.subarray(at, at + size)));
  return seen;
}

describe("counting rows as they arrive", () => {
  for (const format of ["csv", "json"] as const) {
    it(`counts every ${format} row once, however the bytes are cut`, async () => {
      const bytes = await fileBytes(format, 3);
      for (const size of [1, 2, 3, 7, 64, 100_000]) {
        const seen = countInPieces(bytes, format, size);
        expect(seen.at(-1), `pieces of ${size}`).toBe(21);
        expect(seen.every((n, i) => i === 0 || n >= seen[i - 1])).toBe(true);
      }
    });
  }
});

describe("how the file ended", () => {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  for (const format of ["csv", "json"] as const) {
    it(`tells a whole ${format} file from one a provider failure cut short`, async () => {
      expect(exportEnding(text(await fileBytes(format, 3)), format)).toEqual({ complete: true });
      const ending = exportEnding(text(await fileBytes(format, 3, 2)), format);
      expect(ending).toEqual({
        complete: false,
        message: expect.stringMatching(
          /^EXPORT INCOMPLETE: only the first 14 rows are here\. The invoicing API failed midway \(.*No answer within 10 s\.\)\. Export again\.$/,
        ),
      });
    });
  }

  it("reads a JSON file without its ending as cut off", async () => {
    const whole = text(await fileBytes("json", 2));
    expect(exportEnding(whole.slice(0, whole.length - 40), "json")).toEqual({
      complete: false,
      message: expect.stringContaining("cut off"),
    });
  });
});
