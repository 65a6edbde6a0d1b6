// One structured logger (pino) for everything the server writes when LOG_FORMAT=json: the request
// lines and the shutdown line of server.mjs, and — console.* routed through it — everything the app and Next.js
// print, each a JSON line with `time`, `level`, `msg`, the serving request's `request_id` when there is one, and
// an error's stack in `err.stack` (never raw stack lines between the JSON). With LOG_FORMAT=text console.* is left
// as it is and the logger writes lines for a person.
import { inspect } from "node:util";
import pino from "pino";

/**
 * The process's one pino (the app's lib/platform/observability/log.ts writes through a child of it): JSON lines,
 * or with LOG_FORMAT=text each message as a line for a person, warnings and errors on stderr, an error's stack under it.
 * @param {{ json: boolean, requestId: () => string | undefined }} options
 *   `requestId`: the id of the request being served at the moment of the call (AsyncLocalStorage), if any.
 */
export function createPino({ json, requestId }) {
  return pino(
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
    json ? pino.destination({ dest: 1, sync: true }) : forPeople(),
  );
}

/** createPino's logger, with console.* written through it when LOG_FORMAT=json. */
export function createLogger({ json, requestId }) {
  const logger = createPino({ json, requestId });
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

/**
 * A line for a person: the message, then its fields (request_id, …) as key=value, then the error under it, its
 * stack or, for something thrown that is not an Error, what it is.
 */
function forPeople() {
  return {
    write(line) {
      const { level, time, msg, err, ...fields } = JSON.parse(line);
      const out = level === "error" || level === "fatal" || level === "warn" ? process.stderr : process.stdout;
      const said = Object.entries(fields).map(([key, value]) => ` ${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
      const error = err === undefined ? "" : `\n${err?.stack ?? (typeof err === "string" ? err : JSON.stringify(err))}`;
      out.write(`${msg ?? ""}${said.join("")}${error}\n`);
    },
  };
}
