"use client";

import { ArrowLeftRight } from "lucide-react";
import { useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { formatRateEur } from "@/lib/format";
import { isZero, parseDecimal, roundDecimal, type Decimal } from "@/lib/invoicing/money";
import { cryptoToEur, eurToCrypto } from "@/lib/rates/change";

type Side = "eur" | "crypto";

/**
 * Reads a person's number: "1 234,5" and "1,234.5" both mean what they look like; blank or junk → null.
 * The same reading as before issue 22, giving the decimal's text instead of a float.
 */
function parseAmount(text: string): Decimal | null {
  const compact = text.replace(/[\s\u00a0\u202f']/g, "");
  const normalised = /,\d{1,2}$/.test(compact) && !compact.includes(".") ? compact.replace(",", ".") : compact.replaceAll(",", "");
  if (!/^\d*\.?\d+$|^\d+\.$/.test(normalised)) return null;
  return parseDecimal(normalised);
}

/** Plain digits a person can keep editing: no grouping, rounded to `decimals`, no trailing zeros. */
function plain(value: Decimal | null, decimals: number): string {
  if (value === null) return "";
  const rounded = roundDecimal(value, decimals);
  return isZero(rounded) ? "0" : rounded.includes(".") ? rounded.replace(/\.?0+$/, "") : rounded;
}

/**
 * EUR ↔ any currency at the current rate, both ways: typing in one box fills the other, and a new rate (or
 * another currency) recomputes the box the person did not type in.
 */
export function RatesConverter({ rates, names, decimals }: { rates: Record<string, Decimal>; names: Map<string, string>; decimals: Map<string, number> }) {
  const codes = Object.keys(rates);
  const [currency, setCurrency] = useState(codes[0] ?? "");
  const [typed, setTyped] = useState<{ side: Side; text: string }>({ side: "eur", text: "100" });
  const code = rates[currency] ? currency : (codes[0] ?? "");
  const rate = rates[code];
  const cryptoDecimals = Math.min(decimals.get(code) ?? 8, 8);
  const amount = parseAmount(typed.text);
  const other = amount === null || !rate ? "" : typed.side === "eur" ? plain(eurToCrypto(amount, rate, cryptoDecimals), cryptoDecimals) : plain(cryptoToEur(amount, rate), 2);
  const eurText = typed.side === "eur" ? typed.text : other;
  const cryptoText = typed.side === "crypto" ? typed.text : other;
  const invalid = typed.text.trim() !== "" && amount === null ? "Enter a number, like 250 or 0.015." : undefined;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Converter</CardTitle>
        <CardDescription>At the rate shown above. Type in either box.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Field label="Currency">
          <Select value={code} onChange={(e) => setCurrency(e.target.value)} options={codes.map((c) => ({ value: c, label: `${names.get(c) ?? c} (${c})` }))} />
        </Field>
        <div className="grid grid-cols-[1fr_auto_1fr] items-end gap-2">
          <Field label="EUR" error={typed.side === "eur" ? invalid : undefined}>
            <Input inputMode="decimal" autoComplete="off" className="text-right tabular-nums" value={eurText} onChange={(e) => setTyped({ side: "eur", text: e.target.value })} />
          </Field>
          <ArrowLeftRight aria-hidden className="mb-2.5 size-4 text-muted-foreground" />
          <Field label={code || "Crypto"} error={typed.side === "crypto" ? invalid : undefined}>
            <Input inputMode="decimal" autoComplete="off" className="text-right tabular-nums" value={cryptoText} onChange={(e) => setTyped({ side: "crypto", text: e.target.value })} />
          </Field>
        </div>
        {rate && <p className="text-xs text-muted-foreground tabular-nums">1 {code} = {formatRateEur(rate)}</p>}
      </CardContent>
    </Card>
  );
}
