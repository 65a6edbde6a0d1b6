import { z } from "zod";

/*
 * The settings of the server layer (scripts/server/server.mjs): read by it before Next.js starts, and by the
 * app's settings (lib/platform/env.ts) from these same definitions, so a value means one thing to both and a bad
 * one stops the process with one message. Plain JavaScript: the server layer runs without a build.
 */

/** A whole number of digits only ("1e3" and "5.0" are refused as a person would not mean them). */
const wholeNumber = (min, max, fallback, meaning) => {
  const error = `must be a whole number from ${min} to ${max}${meaning ? ` (${meaning})` : ""}`;
  return z.string().regex(/^\d+$/, { error }).transform(Number).pipe(z.number().min(min, { error }).max(max, { error })).default(fallback);
};

const schema = z.object({
  PORT: wholeNumber(1, 65_535, 3000),
  TRUSTED_PROXIES: wholeNumber(0, 10, 0, "the reverse proxies in front of the console"),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be the console's address, like https://console.example.com" }).optional(),
  ALLOWED_HOSTS: z.string().optional(),
  LOG_FORMAT: z.enum(["text", "json"], { error: "must be text or json" }).default("text"),
  SHUTDOWN_GRACE_SECONDS: wholeNumber(1, 600, 10, "how long requests in flight may finish on SIGTERM"),
  REQUEST_MAX_CONCURRENCY: wholeNumber(1, 10_000, 16, "signed-in requests worked on at once"),
  ANONYMOUS_MAX_CONCURRENCY: wholeNumber(1, 10_000, 16, "requests without a session worked on at once"),
  OVERLOAD_MAX_WAIT_MS: wholeNumber(0, 30_000, 1_000, "how long a request waits for a free slot before a 503"),
  REQUEST_MAX_BODY_BYTES: wholeNumber(1_024, 100 * 1_048_576, 1_048_576, "the largest request body read"),
  REQUEST_BODY_TIMEOUT_SECONDS: wholeNumber(1, 300, 10, "how long a request body may take to arrive"),
});

/** An empty variable is an unset one (`PORT= npm start`). */
export function emptyAsUnset(source) {
  return Object.fromEntries(Object.entries(source).filter((entry) => !!entry[1]));
}

/** "NAME: what is wrong" for each of zod's issues. */
export const problemLines = (issues) => issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

/** What a refused configuration says, one line a variable. */
export const invalidConfiguration = (lines) => `Invalid configuration:\n${lines.map((line) => `  ${line}`).join("\n")}`;

/** The server layer's settings from the environment, or what is wrong with them. */
export function readServerSettings(source) {
  const parsed = schema.safeParse(emptyAsUnset(source));
  if (!parsed.success) return { problems: problemLines(parsed.error.issues) };
  const e = parsed.data;
  return {
    problems: [],
    settings: {
      port: e.PORT,
      trustedProxies: e.TRUSTED_PROXIES,
      publicUrl: e.PUBLIC_URL,
      allowedHosts: e.ALLOWED_HOSTS,
      logFormat: e.LOG_FORMAT,
      shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
      requestMaxConcurrency: e.REQUEST_MAX_CONCURRENCY,
      anonymousMaxConcurrency: e.ANONYMOUS_MAX_CONCURRENCY,
      overloadMaxWaitMs: e.OVERLOAD_MAX_WAIT_MS,
      requestMaxBodyBytes: e.REQUEST_MAX_BODY_BYTES,
      requestBodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_SECONDS * 1000,
    },
  };
}
