// Next.js's anonymous telemetry is off unless asked for (docs/configuration.md, NEXT_TELEMETRY_DISABLED). Next.js reads any
// non-empty value as "disabled", so the one way to ask, NEXT_TELEMETRY_DISABLED=0 (or false), is taken away;
// unset, it is set to 1. The server (scripts/server/server.mjs), `npm start`'s build and `npm test` apply it.

/** Applies the default to `env` (the process's own unless given) and returns it. */
export function withTelemetryDefault(env = process.env) {
  if (/^(0|false)$/i.test(env.NEXT_TELEMETRY_DISABLED ?? "")) delete env.NEXT_TELEMETRY_DISABLED;
  else env.NEXT_TELEMETRY_DISABLED ||= "1";
  return env;
}
