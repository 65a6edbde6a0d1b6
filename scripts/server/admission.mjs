// The server's front door: at most `limit` requests are worked on at once; a few more wait, for at
// most `maxWaitMs`, in a queue of `queue` places; the rest are refused at once. Bounding work where it enters
// keeps everything behind it (session reads, the embedded database, calls to the invoicing API) short, so
// a person gets a fast answer or a fast, honest "busy" rather than a ten-second wait that ends in a timeout.

/**
 * @param {{ limit: number, queue: number, maxWaitMs: number, perKey?: number }} options
 *   `perKey`: the most requests of one key (a client's address) admitted or waiting at once; more are refused.
 * @returns {{ enter(gaveUp?: AbortSignal, key?: string): Promise<(() => void) | null>, readonly active: number, readonly waiting: number }}
 *   `enter` resolves to the function that gives the place back, or to null when the request is refused.
 */
export function createAdmission({ limit, queue, maxWaitMs, perKey = Infinity }) {
  let active = 0;
  /** @type {{ admit: () => void, timer: NodeJS.Timeout }[]} */
  const waiting = [];
  /** Requests admitted or waiting, per key (only keys that have some). */
  const byKey = new Map();
  const hold = (key) => key !== undefined && byKey.set(key, (byKey.get(key) ?? 0) + 1);
  const letGo = (key) => {
    if (key === undefined) return;
    const left = byKey.get(key) - 1;
    if (left > 0) byKey.set(key, left);
    else byKey.delete(key);
  };

  function release() {
    const next = waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.admit();
    } else {
      active -= 1;
    }
  }
  /** A place given back exactly once, however many times the caller calls it. */
  function ticket(key) {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      letGo(key);
      release();
    };
  }

  return {
    /**
     * `gaveUp`: the client went away; its place in the queue goes to the next request at once.
     * `key`: whose request this is, for the `perKey` cap.
     */
    enter(gaveUp, key) {
      if (key !== undefined && (byKey.get(key) ?? 0) >= perKey) return Promise.resolve(null);
      if (active < limit) {
        active += 1;
        hold(key);
        return Promise.resolve(ticket(key));
      }
      if (waiting.length >= queue || maxWaitMs === 0 || gaveUp?.aborted) return Promise.resolve(null);
      hold(key);
      return new Promise((resolve) => {
        const leaveQueue = () => {
          clearTimeout(entry.timer);
          const index = waiting.indexOf(entry);
          if (index < 0) return; // already admitted, or already gone
          waiting.splice(index, 1);
          letGo(key);
          resolve(null);
        };
        const entry = {
          admit: () => {
            gaveUp?.removeEventListener("abort", leaveQueue);
            resolve(ticket(key));
          },
          timer: setTimeout(leaveQueue, maxWaitMs),
        };
        gaveUp?.addEventListener("abort", leaveQueue, { once: true });
        waiting.push(entry);
      });
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/**
 * Requests the front door lets through without a place: static files, liveness/readiness probes, and the
 * metrics scrape (it must see an overload, not be refused by it; it reads no data without its token or an admin).
 */
export function bypassesAdmission(pathname) {
  return (
    pathname.startsWith("/_next/static/") ||
    pathname === "/api/health" ||
    pathname === "/api/health/ready" ||
    pathname === "/api/metrics" ||
    /^\/(?:icon\.svg|favicon\.ico|robots\.txt|apple-touch-icon\.png)$/.test(pathname)
  );
}
