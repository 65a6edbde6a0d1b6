/** The server layer's settings (lib/platform/server-settings.mjs), shared with the app's env. */
export type ServerSettings = {
  port: number;
  /** Reverse proxies in front of the console whose X-Forwarded-* headers are believed (0: none). */
  trustedProxies: number;
  publicUrl: string | undefined;
  allowedHosts: string | undefined;
  logFormat: "text" | "json";
  shutdownGraceMs: number;
  requestMaxConcurrency: number;
  anonymousMaxConcurrency: number;
  overloadMaxWaitMs: number;
  requestMaxBodyBytes: number;
  requestBodyTimeoutMs: number;
};

export function emptyAsUnset(source: Record<string, string | undefined>): Record<string, string>;

export function problemLines(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string[];

export function invalidConfiguration(lines: readonly string[]): string;

export function readServerSettings(
  source: Record<string, string | undefined>,
): { problems: string[]; settings: ServerSettings } | { problems: string[]; settings?: undefined };
