"use client";

import dynamic from "next/dynamic";
import { type ComponentProps, createContext, useContext } from "react";
import { derivedByProvider } from "./preview-words";

// The "≈" preview reads rates with zod and big.js: it loads after the page, which says meanwhile how the other amount
// is found, naming the currency chosen (the loading slot takes no props: the name comes through a context).
const ChosenCurrency = createContext<string | undefined>(undefined);
const AmountPreview = dynamic(() => import("./amount-preview").then((m) => m.AmountPreview), {
  ssr: false,
  loading: () => <PreviewBeforeRates />,
});

function PreviewBeforeRates() {
  return (
    <p className="text-xs text-muted-foreground" data-testid="amount-preview">
      {derivedByProvider(useContext(ChosenCurrency))}
    </p>
  );
}

/** The sentence under the archive form's amount: the server's words first, the "≈" preview once it has loaded. */
export function AmountPreviewSlot(props: ComponentProps<typeof AmountPreview>) {
  return (
    <ChosenCurrency value={props.currencyName}>
      <AmountPreview {...props} />
    </ChosenCurrency>
  );
}
