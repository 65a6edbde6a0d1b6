/*
 * Sends an import's rows to POST /archived one at a time, starting at most `perSecond` a second, so a big
 * file never floods the provider. A 429 waits as long as the provider asks and tries the row again; an answer
 * that never came (timeout, lost connection) is tried again once, which is safe because the order id is the
 * key: a row that did land the first time comes back as already recorded.
 */

export type SendOutcome<T> =
  | { kind: "created"; value: T }
  | { kind: "already_recorded"; message: string }
  | { kind: "failed"; status: number; message: string; errors: { field: string; message: string }[] };

export type SendOptions = {
  perSecond?: number;
  signal?: AbortSignal;
  /** Waits `ms` (the default uses timers; tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export async function sendRows<R, T>(
  rows: readonly R[],
  send: (row: R) => Promise<SendOutcome<T> & { retryAfterSeconds?: number; unknownOutcome?: boolean }>,
  onResult: (row: R, outcome: SendOutcome<T>, done: number) => void,
  options: SendOptions = {},
): Promise<void> {
  const perSecond = options.perSecond ?? 5;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? (() => Date.now());
  const gap = 1000 / perSecond;
  let nextStart = now();
  let done = 0;

  const paced = async (row: R) => {
    const wait = nextStart - now();
    if (wait > 0) await sleep(wait);
    nextStart = Math.max(now(), nextStart) + gap;
    return send(row);
  };

  for (const row of rows) {
    if (options.signal?.aborted) return;
    let outcome = await paced(row);
    for (let tries = 0; tries < 3 && outcome.retryAfterSeconds !== undefined; tries++) {
      await sleep(outcome.retryAfterSeconds * 1000);
      outcome = await paced(row);
    }
    if (outcome.unknownOutcome) outcome = await paced(row);
    done += 1;
    const { retryAfterSeconds: _r, unknownOutcome: _u, ...result } = outcome;
    onResult(row, result as SendOutcome<T>, done);
  }
}
