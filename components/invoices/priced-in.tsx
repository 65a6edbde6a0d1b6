"use client";

import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import type { Invoice } from "@/lib/invoicing";
import { pricedInNote } from "@/lib/invoices/priced-in";

/** "Priced in ETH; EUR derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET", in the person's zone; nothing when the provider does not say. */
export function PricedInNote({ invoice }: { invoice: Invoice }) {
  const timeZone = useTimeZone();
  const note = pricedInNote(invoice, timeZone);
  if (!note) return null;
  return (
    <p className="max-w-sm text-xs text-muted-foreground tabular-nums sm:ml-auto" data-testid="priced-in">
      {note}
    </p>
  );
}
