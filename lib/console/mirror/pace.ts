/**
 * How fast the mirror reads the provider: never faster than its ceiling (SEARCH_SYNC_PAGES_PER_SECOND), a little
 * faster after each quick answer, half as fast after a slow one, a refusal (429, 503), or when people's own calls
 * to the provider are under way (the fill yields to them). Additive growth would take minutes to reach the ceiling;
 * 25 % a page takes about ten pages.
 */
export function createPace(options: {
  /** The shortest wait between two pages: the ceiling. */
  minIntervalMs: number;
  /** The longest: the floor a struggling provider is read at. */
  maxIntervalMs?: number;
  /** Whether other calls to the provider are running or waiting now. */
  othersBusy?: () => boolean;
}) {
  const min = options.minIntervalMs;
  const max = Math.max(min, options.maxIntervalMs ?? 2_000);
  // From an eighth of the ceiling: a provider is not hit at full speed before it has shown it answers quickly.
  let interval = Math.min(max, min * 8);
  const slower = () => (interval = Math.min(max, interval * 2));

  return {
    /** How long to wait before the next page. */
    intervalMs: () => Math.round(interval),
    /** One page answered in `latencyMs`. */
    answered(latencyMs: number): void {
      if (options.othersBusy?.()) slower();
      else if (latencyMs > 1_500) slower();
      else if (latencyMs < 500) interval = Math.max(min, interval / 1.25);
    },
    /** The provider refused or failed: slow down before the next try. */
    refused: slower,
  };
}

export type Pace = ReturnType<typeof createPace>;
