import "server-only";
import { Problem } from "@/lib/contract/problem";
import { counter, gaugeSource } from "@/lib/platform/observability/metrics";

export type ConcurrencyLimitOptions = {
  /** What is limited, as a person reads it in the 503's detail ("the invoicing API", "the sandbox"). */
  what: string;
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting for a slot; one more is refused at once. */
  queue: number;
  /** The longest a task waits for a slot before it is refused. */
  maxWaitMs: number;
  /** The limit's name in metrics ("upstream", "sandbox"); `what` when absent. */
  name?: string;
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
export function createConcurrencyLimit(options: ConcurrencyLimitOptions, state: LimitState = { active: 0, waiters: [] }): ConcurrencyLimit {
  const { waiters } = state;
  const retryAfter = String(Math.max(1, Math.ceil(options.maxWaitMs / 1000)));

  const refused = counter(
    "invoice_console_concurrency_refused_total",
    "Calls a concurrency limit refused with a 503 (queue full, or no slot in time), by limit (upstream: UPSTREAM_MAX_CONCURRENCY; sandbox: SANDBOX_MAX_CONCURRENCY).",
    ["limit"],
  );
  const busy = (why: string) => {
    refused.inc({ limit: options.name ?? options.what });
    return Problem.of("overloaded", {
      detail: `${capitalise(options.what)} ${why}. Try again in ${retryAfter} s.`,
      headers: { "retry-after": retryAfter },
      upstreamStatus: null,
    });
  };

  function slot(): Promise<void> {
    if (state.active < options.concurrency && waiters.length === 0) {
      state.active++;
      return Promise.resolve();
    }
    if (waiters.length >= options.queue) return Promise.reject(busy("is busy with other requests"));
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        state.active++;
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
    state.active--;
    if (state.active < options.concurrency) waiters.shift()?.();
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
      return state.active;
    },
    get waiting() {
      return waiters.length;
    },
  };
}

/** What is running and waiting: shared by every copy of a limit in one process. */
type LimitState = { active: number; waiters: (() => void)[] };

// The counts on globalThis, not in module scope: Next.js loads this module once per route bundle, and a limit
// only bounds anything if the whole process shares it. The functions stay per bundle, so the problem a refused
// call throws is of its caller's own Problem class (an `instanceof` in another bundle would not know it).
const holder = globalThis as typeof globalThis & { __invoiceConsoleLimits?: Map<string, LimitState> };
const limits = new Map<string, ConcurrencyLimit>();

/** The process's one limit of this name, made with `options` on first use. */
export function processConcurrencyLimit(name: string, options: () => ConcurrencyLimitOptions): ConcurrencyLimit {
  let limit = limits.get(name);
  if (!limit) {
    const states = (holder.__invoiceConsoleLimits ??= new Map());
    let state = states.get(name);
    if (!state) states.set(name, (state = { active: 0, waiters: [] }));
    limits.set(name, (limit = createConcurrencyLimit({ ...options(), name }, state)));
    for (const [metric, help, read] of [
      ["invoice_console_concurrency_active", "Calls running under a concurrency limit, by limit.", (s: LimitState) => s.active],
      [
        "invoice_console_concurrency_waiting",
        "Calls waiting for a slot of a concurrency limit, by limit.",
        (s: LimitState) => s.waiters.length,
      ],
    ] as const) {
      gaugeSource(metric, help, ["limit"], (gauge) => {
        for (const [limitName, limitState] of states) gauge.set({ limit: limitName }, read(limitState));
      });
    }
  }
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
      const started: Promise<T> = task().finally(() => {
        if (inFlight.get(key) === started) inFlight.delete(key);
      });
      inFlight.set(key, started);
      return started;
    },
    /** Reads from now on start their own call: the ones in flight may have begun before a change. */
    forgetAll(): void {
      inFlight.clear();
    },
    get size() {
      return inFlight.size;
    },
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
