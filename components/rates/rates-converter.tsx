"use client";

import { ArrowLeftRight } from "lucide-react";
import { useId, useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { formatRateEur } from "@/lib/contract/format";
import { type Decimal, isZero, roundDecimal } from "@/lib/contract/money";
import { cryptoToEur, eurToCrypto } from "@/lib/contract/rate-change";
import { readTypedAmount } from "@/lib/contract/typed-amount";

type Side = "eur" | "crypto";

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
export function RatesConverter({
  rates,
  names,
  decimals,
}: {
  rates: Record<string, Decimal>;
  names: Map<string, string>;
  decimals: Map<string, number>;
}) {
  const codes = Object.keys(rates);
  const [currency, setCurrency] = useState(codes[0] ?? "");
  const [typed, setTyped] = useState<{ side: Side; text: string }>({ side: "eur", text: "100" });
  const code = rates[currency] ? currency : (codes[0] ?? "");
  const rate = rates[code];
  const cryptoDecimals = Math.min(decimals.get(code) ?? 8, 8);
  // One reader for every typed amount (lib/contract/typed-amount.ts): "1,234" or "1.000,50" is refused with
  // why, never guessed at; the other box stays empty until the typed one is a number.
  const read = readTypedAmount(typed.text, typed.side === "eur" ? "EUR" : code || "Crypto");
  const amount = read.kind === "amount" ? read.value : null;
  const other =
    amount === null || !rate
      ? ""
      : typed.side === "eur"
        ? plain(eurToCrypto(amount, rate, cryptoDecimals), cryptoDecimals)
        : plain(cryptoToEur(amount, rate), 2);
  const eurText = typed.side === "eur" ? typed.text : other;
  const cryptoText = typed.side === "crypto" ? typed.text : other;
  const invalid = read.kind === "refused" ? read.message : undefined;
  const errorId = useId();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Converter</CardTitle>
        <CardDescription>At the rate shown above. Type in either box.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Field label="Currency">
          <Select
            value={code}
            onChange={(e) => setCurrency(e.target.value)}
            options={codes.map((c) => ({ value: c, label: `${names.get(c) ?? c} (${c})` }))}
          />
        </Field>
        <div className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-end gap-2">
          <Field label="EUR">
            <Input
              inputMode="decimal"
              autoComplete="off"
              className="text-right tabular-nums"
              value={eurText}
              aria-invalid={typed.side === "eur" && invalid ? true : undefined}
              aria-describedby={typed.side === "eur" && invalid ? errorId : undefined}
              onChange={(e) => setTyped({ side: "eur", text: e.target.value })}
            />
          </Field>
          <ArrowLeftRight aria-hidden className="mb-2.5 size-4 text-muted-foreground" />
          <Field label={code || "Crypto"}>
            <Input
              inputMode="decimal"
              autoComplete="off"
              className="text-right tabular-nums"
              value={cryptoText}
              aria-invalid={typed.side === "crypto" && invalid ? true : undefined}
              aria-describedby={typed.side === "crypto" && invalid ? errorId : undefined}
              onChange={(e) => setTyped({ side: "crypto", text: e.target.value })}
            />
          </Field>
        </div>
        {/* Under both boxes, full width: the sentence says which box and what to write. */}
        {invalid && (
          <p id={errorId} className="text-xs font-medium text-danger-text" data-testid="converter-error">
            {invalid}
          </p>
        )}
        {rate && (
          <p className="text-xs text-muted-foreground tabular-nums">
            1 {code} = {formatRateEur(rate)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
