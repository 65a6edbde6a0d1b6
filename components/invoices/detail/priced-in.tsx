import { requestTimeZone } from "@/lib/console/time-zone-server";
import type { Invoice } from "@/lib/contract";
import { pricedInParts } from "@/lib/contract/priced-in";

/** "Priced in ETH; EUR derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET", in the person's zone; nothing when the provider does not say. */
export async function PricedInNote({ invoice }: { invoice: Invoice }) {
  // Drawn on the server, in the request's zone: a sentence that never changes needs no script.
  const { timeZone } = await requestTimeZone();
  const parts = pricedInParts(invoice, timeZone);
  if (!parts) return null;
  return (
    <p
      className="my-1 max-w-md text-xs text-muted-foreground tabular-nums sm:ml-auto"
      data-testid="priced-in"
      title={`Exactly ${parts.exactRate}`}
    >
      {parts.lead}
      {parts.when && (
        <>
          {" on "}
          <span className="whitespace-nowrap">{parts.when}</span>
        </>
      )}
    </p>
  );
}
