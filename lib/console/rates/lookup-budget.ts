import "server-only";
import { Problem } from "@/lib/contract/problem";

/**
 * How many past-rates lookups reach the provider a minute: so many per person, and so many for everyone together,
 * which stays below the provider's own limit on GET /rates so the current-rates refresh always has its share (one
 * person's flood cannot make the rates stale for everybody). Fixed one-minute windows, counted in this process;
 * only lookups the console has not answered before count (a minute's rates are kept once asked).
 */
export function createLookupBudget(options: { perPerson: number; shared: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  let window = -1;
  let shared = 0;
  const byPerson = new Map<string, number>();

  return {
    /** Counts one lookup for `personId`, or throws a 429 saying whose limit it met and when to try again. */
    take(personId: string): void {
      const t = now();
      const current = Math.floor(t / 60_000);
      if (current !== window) {
        window = current;
        shared = 0;
        byPerson.clear();
      }
      const retryAfter = Math.max(1, Math.ceil(((current + 1) * 60_000 - t) / 1000));
      const own = byPerson.get(personId) ?? 0;
      if (own >= options.perPerson) {
        throw refused(
          retryAfter,
          `You have looked up the rates of ${own} past minutes in this minute, the most one person may. Try again in ${retryAfter} s.`,
        );
      }
      if (shared >= options.shared) {
        throw refused(
          retryAfter,
          `Past rates have been looked up ${shared} times in this minute; the rest of the invoicing API's limit is kept for the current rates. Try again in ${retryAfter} s.`,
        );
      }
      byPerson.set(personId, own + 1);
      shared += 1;
    },
  };
}

const refused = (retryAfter: number, detail: string) =>
  Problem.of("too_many_requests", { title: "Too many rate lookups", detail, headers: { "retry-after": String(retryAfter) } });

export type LookupBudget = ReturnType<typeof createLookupBudget>;
