/**
 * How fast the mirror reads the provider: never faster than its ceiling (SEARCH_SYNC_PAGES_PER_SECOND), a little
 * faster after each quick answer, half as fast after a slow one, a refusal (429, 503), or when people's own calls
 * to the provider are under way (the fill yields to them). Additive growth would take minutes to reach the ceiling;
 * 25 % a page takes about ten pages. Pages may start together (`startAt`): spacing each one out kept the provider
 * and this process waiting on each other, while no second ever holds more starts than the ceiling.
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
  const perSecond = Math.max(1, Math.floor(1000 / min));
  /** When the pages of the last second started, oldest first. */
  const started: number[] = [];
  // From an eighth of the ceiling: a provider is not hit at full speed before it has shown it answers quickly.
  let interval = Math.min(max, min * 8);
  const slower = () => (interval = Math.min(max, interval * 2));

  return {
    /** The most pages that may start together: the ceiling's pages a second. */
    perSecond,
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
    /**
     * When `count` pages may start together, at the earliest `earliest` (epoch ms): the first instant at which the
     * second before it, and them, hold no more starts than the ceiling. Records them as started then.
     */
    startAt(count: number, earliest: number): number {
      if (count > perSecond) throw new RangeError(`${count} pages cannot start together under a ceiling of ${perSecond} a second`);
      let at = Math.max(earliest, started.at(-1) ?? earliest);
      const forgetOlder = () => {
        while (started.length && started[0] <= at - 1000) started.shift();
      };
      forgetOlder();
      // Too many in the second before: wait until the oldest ones that must leave it have.
      if (started.length + count > perSecond) at = started[started.length + count - perSecond - 1] + 1000;
      forgetOlder();
      for (let i = 0; i < count; i++) started.push(at);
      return at;
    },
  };
}

export type Pace = ReturnType<typeof createPace>;
