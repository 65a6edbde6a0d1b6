/** The shell's band the rates strip fills: drawn empty while its rates are on their way, so the page does not move when they come. */
export const RATES_BAND = "border-b border-border bg-muted/50";

export function RatesBand() {
  return (
    <div className={RATES_BAND} aria-hidden>
      <div className="h-8" />
    </div>
  );
}
