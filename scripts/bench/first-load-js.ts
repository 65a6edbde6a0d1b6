// `npm run bench:js`: the first-load JavaScript of the console's pages, as a browser downloads it. Starts the
// BUILT console (scripts/server/server.mjs via test/console-server.ts, fresh PGlite, a free port), signs in as admin
// with a test session, opens each page in Chromium and records every script the page fetches. Prints, per
// page, the gzip size of:
//   - first load: the scripts the page's HTML names, which the browser must fetch and run before the page is
//     interactive — what Next.js calls "First Load JS": every <script src>, and each chunk the HTML names
//     otherwise (<link rel="preload" as="script">, modulepreload, the inline RSC payload's client references)
//     that the browser fetched (see scriptsNamedIn);
//   - by idle: every script fetched until the network is idle (adds chunks loaded on demand after hydration,
//     such as lazily loaded parts and Next.js's prefetches), so nothing deferred goes unseen.
// Sizes are the decoded bytes of each file gzipped with zlib's default level (what `next build` reported
// before Turbopack, and close to what the server sends with its own gzip). Figures are printed, never asserted.
//
//   npx next build && npm run bench:js
//   npm run bench:js -- /invoices /rates          only these pages
//   npm run bench:js -- --json                    one JSON object instead of the table
//
// Scripts that import `measureFirstLoadJs` (scripts/bench/bench-list.ts) get the same figures as data.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type Browser, chromium, type Response } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "@/test/console-server";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Every page a signed-in admin can open: each `page.tsx` under app/(console), read from the tree so a new page
 * is measured without being listed, and `/login`. `/invoices/{first}` is replaced by the first invoice of the list.
 */
export const CONSOLE_PAGES: readonly string[] = [...consolePages(path.join(root, "app", "(console)")), "/login"];

/** The routes of the pages under `dir`; a dynamic segment other than the invoice's id has no value to open. */
function consolePages(dir: string, route = ""): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  const pages = entries.some((e) => e.isFile() && e.name === "page.tsx") ? [route || "/"] : [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const segment = entry.name.startsWith("(") ? "" : entry.name === "[id]" && route === "/invoices" ? "/{first}" : `/${entry.name}`;
    if (segment.includes("[")) throw new Error(`${route}${segment}: no value to open this page with; say how in consolePages`);
    pages.push(...consolePages(path.join(dir, entry.name), route + segment));
  }
  return pages;
}

export type ScriptSize = {
  url: string;
  bytes: number;
  gzip: number /** Named by the HTML: part of the first load. */;
  firstLoad?: boolean;
};
export type PageJs = {
  route: string;
  /** What was opened (the detail page with a real id). */
  path: string;
  /** The scripts the HTML names: the first load. */
  firstLoad: { files: number; bytes: number; gzip: number };
  /** Every script fetched until the network was idle. */
  byIdle: { files: number; bytes: number; gzip: number };
  scripts: ScriptSize[];
};

const KB = 1024;
export const kb = (bytes: number) => Math.round((bytes / KB) * 10) / 10;

/** main's figures (commit 191b965, measured with this script before the first-load JS was cut), in KB gzip. */
export const BASELINE_KB = JSON.parse(readFileSync(path.join(root, "scripts", "bench", "first-load-js.baseline.json"), "utf8")) as {
  commit: string;
  firstLoadKb: Record<string, number>;
  byIdleKb: Record<string, number>;
};

type Options = { routes?: readonly string[]; console?: ConsoleServer; chromiumPath?: string };

/**
 * Opens each route of the built console in Chromium, signed in as admin, and sums the gzip size of the
 * scripts it loads. Starts (and stops) its own console unless one is given.
 */
export async function measureFirstLoadJs(options: Options = {}): Promise<PageJs[]> {
  const routes = options.routes ?? CONSOLE_PAGES;
  const server = options.console ?? (await startConsoleServer());
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: options.chromiumPath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
    });
    const cookie = server.sessions.roles.admin;
    const results: PageJs[] = [];
    for (const route of routes) {
      const target = route.includes("{first}") ? route.replace("{first}", encodeURIComponent(await firstInvoiceId(server))) : route;
      // A fresh context a page: an empty cache, as on a first visit. /login is measured signed out.
      const context = await browser.newContext({ baseURL: server.url });
      if (route !== "/login") await context.addCookies(cookiesFrom(cookie, server.url));
      const page = await context.newPage();
      const fetched = new Map<string, Promise<Buffer | null>>();
      page.on("response", (response: Response) => {
        if (response.request().resourceType() === "script" && !fetched.has(response.url())) {
          fetched.set(
            response.url(),
            response.body().catch(() => null),
          );
        }
      });
      const document = await page.goto(target, { waitUntil: "load" });
      if (document?.status() !== 200) throw new Error(`${target} answered ${document?.status()}: is the build current?`);
      if (new URL(page.url()).pathname !== target.split("?")[0]) throw new Error(`${target} redirected to ${page.url()}`);
      await page.waitForLoadState("networkidle");
      const { tags, elsewhere } = scriptsNamedIn(await document.text(), server.url);
      // A chunk the HTML names elsewhere counts when the browser fetched it (a client reference it never
      // needed, such as a part loaded on demand, is named but not loaded).
      const named = new Set([...tags, ...[...elsewhere].filter((url) => fetched.has(url))]);
      const scripts: ScriptSize[] = [];
      for (const [url, body] of fetched) {
        const bytes = await body;
        if (bytes) scripts.push({ url, bytes: bytes.length, gzip: gzipSync(bytes).length });
      }
      const missing = [...tags].filter((url) => !fetched.has(url));
      if (missing.length) throw new Error(`${target}: the browser never fetched ${missing.join(", ")}`);
      const sum = (list: ScriptSize[]) => ({
        files: list.length,
        bytes: list.reduce((n, s) => n + s.bytes, 0),
        gzip: list.reduce((n, s) => n + s.gzip, 0),
      });
      results.push({
        route,
        path: target,
        firstLoad: sum(scripts.filter((s) => named.has(s.url))),
        byIdle: sum(scripts),
        scripts: scripts.map((s) => ({ ...s, firstLoad: named.has(s.url) })),
      });
      await context.close();
    }
    return results;
  } finally {
    await browser?.close();
    if (!options.console) await server.stop();
  }
}

/**
 * The absolute URLs of the scripts an HTML document names, but for the `nomodule` polyfills (which browsers
 * with modules skip): `<script src>`, and every chunk named elsewhere in the document — `<link rel="preload"
 * as="script">`, and the inline RSC payload (`self.__next_f.push(...)`), whose client references name the
 * chunks React loads before it can hydrate the parts that use them (e.g. a component of `next/dynamic`
 * rendered on the server). Counting `<script src>` alone left those out (194.9 vs 233.6 KB).
 */
export function scriptsNamedIn(html: string, base: string): { tags: Set<string>; elsewhere: Set<string> } {
  const urls = new Set<string>();
  const elsewhere = new Set<string>();
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
    const src = tag.match(/\bsrc="([^"]+)"/)?.[1];
    if (src && !/\bnomodule\b/i.test(tag)) urls.add(new URL(src.replaceAll("&amp;", "&"), base).href);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = tag.match(/\bhref="([^"]+)"/)?.[1];
    if (href && /\brel="(preload|modulepreload)"/.test(tag) && (/\bas="script"/.test(tag) || /modulepreload/.test(tag)))
      elsewhere.add(new URL(href.replaceAll("&amp;", "&"), base).href);
  }
  for (const [chunk] of html.matchAll(/\/_next\/static\/chunks\/[\w.~-]+\.js/g)) elsewhere.add(new URL(chunk, base).href);
  for (const url of urls) elsewhere.delete(url);
  return { tags: urls, elsewhere };
}

function cookiesFrom(header: string, url: string) {
  return header.split(/;\s*/).flatMap((pair) => {
    const i = pair.indexOf("=");
    return i > 0 ? [{ name: pair.slice(0, i), value: pair.slice(i + 1), url }] : [];
  });
}

async function firstInvoiceId(server: ConsoleServer): Promise<string> {
  const response = await fetch(`${server.url}/api/invoices?page_size=10`, { headers: { cookie: server.sessions.roles.admin } });
  const body = (await response.json()) as { items?: { invoice_id: string }[] };
  const id = body.items?.[0]?.invoice_id;
  if (!id) throw new Error(`No invoice to open (GET /api/invoices answered ${response.status})`);
  return id;
}

/** The table the CLI prints: now, main's figure and the ratio, per page. */
export function formatFirstLoadTable(pages: PageJs[]): string {
  const rows = [["page", "first load", "main", "now / main", "files", "by idle", "main by idle"]];
  for (const p of pages) {
    const now = kb(p.firstLoad.gzip);
    const main = BASELINE_KB.firstLoadKb[p.route];
    const idleMain = BASELINE_KB.byIdleKb[p.route];
    rows.push([
      p.route,
      now.toFixed(1),
      main?.toFixed(1) ?? "—",
      main ? (now / main).toFixed(2) : "—",
      String(p.firstLoad.files),
      kb(p.byIdle.gzip).toFixed(1),
      idleMain?.toFixed(1) ?? "—",
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")).join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.chdir(root);
  const args = process.argv.slice(2);
  const routes = args.filter((a) => a.startsWith("/"));
  const pages = await measureFirstLoadJs({ routes: routes.length ? routes : undefined });
  if (args.includes("--json")) {
    console.log(
      JSON.stringify(
        {
          baseline: BASELINE_KB,
          pages: pages.map(({ scripts, ...rest }) => ({ ...rest, scripts: scripts.map((s) => ({ ...s, url: new URL(s.url).pathname })) })),
        },
        null,
        2,
      ),
    );
  } else {
    console.log(
      `JavaScript a page loads, KB gzip: first load (the scripts its HTML names) and by idle (all scripts until the network is idle); main = ${BASELINE_KB.commit}\n`,
    );
    console.log(formatFirstLoadTable(pages));
  }
  process.exit(0);
}
