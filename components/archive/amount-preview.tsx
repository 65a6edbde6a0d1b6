"use client";

import { readAmount } from "@/lib/contract/archive-form-schema";
import { type ArchiveFormValues, readCreatedAt } from "@/lib/contract/archive-form-values";
import { previewSentence } from "./archive-preview";
import { usePreviewRates } from "./use-rates";

/** The sentence under the amount: the other amount at the rate of the creation date (current rates when it is empty), and which. */
export function AmountPreview({
  values,
  currencyName,
  timeZone,
  amountRefused,
}: {
  values: ArchiveFormValues;
  currencyName?: string;
  timeZone: string;
  amountRefused: boolean;
}) {
  const createdAt = readCreatedAt(values, timeZone);
  const rates = usePreviewRates(values.date ? (createdAt.createdAt ?? "") : undefined);
  const typed = readAmount(values);
  const preview = previewSentence({
    rates,
    currency: values.currency,
    currencyName,
    amountIn: values.amount_in,
    amount: typed.kind === "amount" ? typed.value : null,
    timeZone,
    amountRefused,
  });
  return (
    <p className="text-xs text-muted-foreground" aria-live="polite" data-testid="amount-preview" data-rate-kind={rates.kind}>
      {preview}
    </p>
  );
}
