import type { Logger } from "pino";

type Options = { json: boolean; requestId: () => string | undefined };

/** The process's one pino: JSON lines, or lines for a person (lib/platform/observability/pino.mjs). */
export function createPino(options: Options): Logger;

/** createPino's logger, with console.* written through it when `json`. */
export function createLogger(options: Options): Logger;
