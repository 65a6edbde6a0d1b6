import "server-only";
/**
 * A short-lived memo of answers built from the provider, per process: for TTL ms every request with the same
 * key shares one answer (and one in-flight promise, so ten people opening the overview at once make its calls
 * once). Failures are not kept: the next request asks again. Each console instance has its own copy; two
 * instances may show numbers up to one TTL apart, which is why the TTL is short and why nothing that must
 * agree across instances (rates, limits) lives here.
 */
export function ttlCache<T>({ ttlMs, maxEntries = 200, now = Date.now }: { ttlMs: number; maxEntries?: number; now?: () => number }) {
  const entries = new Map<string, { expires: number; value: Promise<T> }>();

  return function cached(key: string, load: () => Promise<T>): Promise<T> {
    const hit = entries.get(key);
    if (hit && hit.expires > now()) return hit.value;
    if (hit) entries.delete(key);
    const value = load();
    entries.set(key, { expires: now() + ttlMs, value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    // Oldest first: a Map iterates in insertion order.
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    return value;
  };
}
