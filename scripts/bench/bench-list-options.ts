import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_KEYS } from "@/lib/sandbox/keys";

// bench:list's options (scripts/bench/bench-list.ts lists them): read from the command line and the environment,
// refused with a sentence when they make no sense.

export const SORT_BY = ["created_at", "updated_at", "fiat_amount", "crypto_amount"] as const;
export const SORT_ORDER = ["asc", "desc"] as const;
export const PAGES = ["1", "50", "middle", "last"] as const;
export const FILTERS = ["none", "status", "currency", "created", "all"] as const;
export type PageName = (typeof PAGES)[number];
export type FilterName = (typeof FILTERS)[number];
export const WARM_UP = 2;
export const DAY = 86_400_000;
export const DIRECT_KEY = DEMO_KEYS.find((k) => k.key === "sk_test_demo_full")!.key;

export type Options = {
  invoices: number;
  requests: number;
  status: string;
  currency: string;
  filters: FilterName[];
  pages: PageName[];
  sorts: { sortBy: string; sortOrder: string }[];
  timeoutMs: number;
  maxRequests: number;
  reset: boolean;
  cookie: string | undefined;
  databaseUrl: string | undefined;
};

export function parseOptions(argv: string[]): Options {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const o: Options = {
    invoices: wholeNumber("BENCH_INVOICES", process.env.BENCH_INVOICES ?? (databaseUrl ? "1000000" : "100000")),
    requests: wholeNumber("BENCH_REQUESTS", process.env.BENCH_REQUESTS ?? "20"),
    status: "completed",
    currency: "BTC",
    filters: [...FILTERS],
    pages: [...PAGES],
    sorts: SORT_BY.flatMap((sortBy) => SORT_ORDER.map((sortOrder) => ({ sortBy, sortOrder }))),
    timeoutMs: 30_000,
    maxRequests: 5_000,
    reset: false,
    cookie: undefined,
    databaseUrl,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${arg} needs a value.`);
      return v;
    };
    switch (arg) {
      case "--invoices":
        o.invoices = wholeNumber(arg, value());
        break;
      case "--requests":
        o.requests = wholeNumber(arg, value());
        break;
      case "--status":
        o.status = value();
        break;
      case "--currency":
        o.currency = value();
        break;
      case "--filters":
        o.filters = subset(arg, value(), FILTERS);
        break;
      case "--pages":
        o.pages = subset(arg, value(), PAGES);
        break;
      case "--sorts": {
        const all = SORT_BY.flatMap((sortBy) => SORT_ORDER.map((sortOrder) => `${sortBy}:${sortOrder}`));
        o.sorts = subset(arg, value(), all).map((x) => ({ sortBy: x.split(":")[0], sortOrder: x.split(":")[1] }));
        break;
      }
      case "--timeout-ms":
        o.timeoutMs = wholeNumber(arg, value());
        break;
      case "--max-requests":
        o.maxRequests = wholeNumber(arg, value());
        break;
      case "--reset":
        o.reset = true;
        break;
      case "--cookie":
        o.cookie = value();
        break;
      case "-h":
      case "--help":
        console.log(
          // The usage is bench-list.ts's opening comment.
          readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "bench-list.ts"), "utf8")
            .split("\nimport ")[0]
            .replace(/^\/\/ ?/gm, ""),
        );
        return process.exit(0);
      default:
        fail(`unknown argument ${arg} (see --help).`);
    }
  }
  if (o.reset && !o.databaseUrl) fail("--reset applies to DATABASE_URL only; PGlite always starts from a fresh folder.");
  return o;
}

function subset<T extends string>(name: string, raw: string, allowed: readonly T[]): T[] {
  const picked = raw
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  const wrong = picked.filter((x) => !allowed.includes(x as T));
  if (wrong.length || !picked.length) fail(`${name} takes a comma-separated subset of ${allowed.join(",")}, not "${raw}".`);
  return picked as T[];
}

function wholeNumber(name: string, raw: string): number {
  const n = Number(raw.replace(/_/g, ""));
  if (!Number.isInteger(n) || n < 1) fail(`${name} must be a whole number of at least 1, not "${raw}".`);
  return n;
}

export function fail(message: string): never {
  console.error(`bench:list: ${message}`);
  process.exit(2);
}
