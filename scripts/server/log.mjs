// One structured logger (pino) for everything the server writes when LOG_FORMAT=json (issue 26): the request
// lines and the shutdown line of server.mjs, and — console.* routed through it — everything the app and Next.js
// print, each a JSON line with `time`, `level`, `msg`, the serving request's `request_id` when there is one, and
// an error's stack in `err.stack` (never raw stack lines between the JSON). With LOG_FORMAT=text nothing changes.
import { inspect } from "node:util";
import pino from "pino";

/**
 * @param {{ json: boolean, requestId: () => string | undefined }} options
 *   `requestId`: the id of the request being served at the moment of the call (AsyncLocalStorage), if any.
 */
export function createLogger({ json, requestId }) {
  const logger = pino(
    {
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const id = requestId();
        return id ? { request_id: id } : {};
      },
    },
    // Synchronous, so the last line (shutdown) is out before the process exits.
    pino.destination({ dest: 1, sync: true }),
  );
  if (json) {
    const write =
      (level) =>
      (...args) => {
        const fields = {};
        const words = [];
        for (const arg of args) {
          if (arg instanceof Error && !fields.err) fields.err = arg;
          else words.push(typeof arg === "string" ? arg : inspect(arg, { breakLength: Infinity }));
        }
        logger[level](fields, words.join(" ") || fields.err?.message || "");
      };
    console.error = write("error");
    console.warn = write("warn");
    console.log = write("info");
    console.info = write("info");
  }
  return logger;
}
