import "server-only";

const OTHERS = "\u0000others";

/**
 * Requests per key (a client's address) in fixed windows, in memory: `take(key)` counts one and answers 0 while
 * the key is within `limit` in the current window, else the seconds until the window ends. Keys are forgotten
 * with their window, and at most `maxKeys` are remembered, so a flood from many addresses cannot grow it.
 */
export function fixedWindowLimiter({
  limit,
  windowMs,
  maxKeys = 10_000,
  now = Date.now,
}: {
  limit: number;
  windowMs: number;
  maxKeys?: number;
  now?: () => number;
}) {
  let windowStart = now();
  let counts = new Map<string, number>();
  return {
    take(key: string): number {
      const at = now();
      if (at - windowStart >= windowMs) {
        windowStart = at - ((at - windowStart) % windowMs);
        counts = new Map();
      }
      // Past maxKeys, new keys share one count: the limiter stays bounded, and a flood is still limited.
      const counted = counts.has(key) || counts.size < maxKeys ? key : OTHERS;
      const count = (counts.get(counted) ?? 0) + 1;
      if (count > limit) return Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
      counts.set(counted, count);
      return 0;
    },
  };
}
