import { Problem } from "@/lib/problem";

export type ConcurrencyLimitOptions = {
  /** What is limited, as a person reads it in the 503's detail ("the invoicing API", "the sandbox"). */
  what: string;
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting for a slot; one more is refused at once. */
  queue: number;
  /** The longest a task waits for a slot before it is refused. */
  maxWaitMs: number;
};

export type ConcurrencyLimit = {
  /** Runs `task` in a slot, or throws an `overloaded` problem (503 with Retry-After) when none comes in time. */
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
};

/**
 * Overload is shed, not queued: at most `concurrency` tasks run; a few more wait briefly (first come, first
 * served), and anything past that gets an immediate 503 with Retry-After instead of a ten-second wait that
 * ends in a timeout.
 */
export function createConcurrencyLimit(options: ConcurrencyLimitOptions): ConcurrencyLimit {
  let active = 0;
  const waiters: (() => void)[] = [];
  const retryAfter = String(Math.max(1, Math.ceil(options.maxWaitMs / 1000)));

  const busy = (why: string) =>
    Problem.of("overloaded", {
      detail: `${capitalise(options.what)} ${why}. Try again in ${retryAfter} s.`,
      headers: { "retry-after": retryAfter },
      upstreamStatus: null,
    });

  function slot(): Promise<void> {
    if (active < options.concurrency && waiters.length === 0) {
      active++;
      return Promise.resolve();
    }
    if (waiters.length >= options.queue) return Promise.reject(busy("is busy with other requests"));
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        active++;
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(grant), 1);
        reject(busy(`had no free slot within ${options.maxWaitMs / 1000} s`));
      }, options.maxWaitMs);
      waiters.push(grant);
    });
  }

  function release(): void {
    active--;
    if (active < options.concurrency) waiters.shift()?.();
  }

  return {
    async run(task) {
      await slot();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
  };
}

// On globalThis, not in module scope: Next.js may load this module in several bundles (one per route), and a
// limit only bounds anything if the whole process shares it.
const holder = globalThis as typeof globalThis & { __invoiceConsoleLimits?: Map<string, ConcurrencyLimit> };

/** The process's one limit of this name, made with `options` on first use. */
export function processConcurrencyLimit(name: string, options: () => ConcurrencyLimitOptions): ConcurrencyLimit {
  const limits = (holder.__invoiceConsoleLimits ??= new Map());
  let limit = limits.get(name);
  if (!limit) limits.set(name, (limit = createConcurrencyLimit(options())));
  return limit;
}

/**
 * Identical reads at the same moment share one call: the first starts it, the others wait for its answer
 * (or its failure). Nothing is kept once it settles, so this is never a cache.
 */
export function createCoalescer() {
  const inFlight = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const pending = inFlight.get(key);
      if (pending) return pending as Promise<T>;
      const started = task().finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
    get size() {
      return inFlight.size;
    },
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
