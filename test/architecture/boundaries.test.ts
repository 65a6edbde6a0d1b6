import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The wings of lib/ and what each may import (ARCHITECTURE.md §8), checked on every import specifier under lib/,
 * app/ and components/ (tests excepted: a test may reach across wings to drive a journey end to end). A violation
 * fails with the file and the import; an exception is written in EXCEPTIONS below with its reason, so nobody
 * crosses a wall without saying why.
 *
 *   lib/contract   isomorphic, no I/O: imports only lib/contract and packages, never node: or server-only
 *   lib/platform   server infrastructure both services use: imports lib/contract and lib/platform
 *   lib/console    the console's server: imports lib/contract, lib/platform, lib/console
 *   lib/browser    browser code: imports lib/contract and lib/browser
 *   lib/sandbox    the sandbox service: imports lib/contract, lib/platform, lib/sandbox
 *
 * Nothing under lib/ imports outside lib/ (scripts/, app/, proxy.ts): the server layer imports lib/, not the reverse.
 *
 * Browser code — lib/browser, every "use client" module and whatever they import, which the bundler ships to the
 * browser with them (a type-only import and a "use server" module excepted) — imports neither lib/console, lib/platform, the
 * sandbox, nor a module marked server-only. Only lib/sandbox and app/sandbox import the sandbox, but for the
 * exceptions.
 */
const ROOT = path.resolve(__dirname, "../..");
const SCANNED = ["lib", "app", "components"];

/** importer → imported (repository paths without extension): allowed crossings, each with its reason. */
const EXCEPTIONS: Record<string, { imports: string; reason: string }[]> = {
  "lib/console/startup.ts": [
    { imports: "lib/sandbox", reason: "the one place that mounts the embedded sandbox: opens its database at start-up" },
    { imports: "lib/sandbox/webhooks", reason: "and stops its webhook dispatcher at shutdown" },
  ],
};

type Wing = "contract" | "platform" | "console" | "browser" | "sandbox" | null;

function wingOf(file: string): Wing {
  const m = /^lib\/(contract|platform|console|browser|sandbox)\//.exec(file);
  if (m) return m[1] as Wing;
  if (file.startsWith("app/sandbox/")) return "sandbox";
  return null;
}

const ALLOWED: Record<Exclude<Wing, null>, Wing[]> = {
  contract: ["contract"],
  platform: ["contract", "platform"],
  console: ["contract", "platform", "console"],
  browser: ["contract", "browser"],
  sandbox: ["contract", "platform", "sandbox"],
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const SPECIFIER =
  /(?:^|[^\w.])(?:import|export)\s([^'"]*?)\sfrom\s*["']([^"']+)["']|(?:^|[^\w.])import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s+["']([^"']+)["']/gm;

type Import = { specifier: string; typeOnly: boolean };

/** Every import specifier of a source, comments left out; an `import type` is erased from the build, so it is marked. */
function importsOf(source: string): Import[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(SPECIFIER)].map((m) => ({ specifier: m[2] ?? m[3] ?? m[4], typeOnly: /^type\s/.test(m[1] ?? "") }));
}

/** A specifier of the repository as a path without extension (lib/console/auth/session), or null for a package. */
function resolve(from: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("@/")) target = specifier.slice(2);
  else if (specifier.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return null;
  return target.replace(/\.(ts|tsx|js|mjs)$/, "");
}

function fileOf(target: string): string | null {
  for (const suffix of [".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const p = path.join(ROOT, target + suffix);
    if (existsSync(p) && statSync(p).isFile()) return target + suffix;
  }
  return null;
}

const isClient = (source: string) => /^\s*(?:\/\/.*\n|\/\*[\s\S]*?\*\/\s*)*["']use client["']/.test(source);
const isServerOnly = (source: string) => /^\s*import\s+["']server-only["']/m.test(source);
/** A "use server" module: what the browser gets of it is a reference to call the server with, not its code. */
const isServerActions = (source: string) => /^\s*["']use server["']/.test(source);
const inWing = (target: string, wing: string) => target === `lib/${wing}` || target.startsWith(`lib/${wing}/`);

/** The violations of one file, one line an import: "file imports specifier: why". */
function violations(file: string, source: string, read: (file: string) => string, inBrowser = false): string[] {
  const wing = wingOf(file);
  const browser = inBrowser || wing === "browser" || isClient(source);
  const why = ({ specifier, typeOnly }: Import): string | null => {
    const target = resolve(file, specifier);
    if (target === null) {
      if (wing === "contract" && (specifier.startsWith("node:") || specifier === "server-only"))
        return "the contract does no I/O and runs anywhere";
      if (browser && specifier === "server-only") return "browser code imports server-only";
      return null;
    }
    if (EXCEPTIONS[file]?.some((e) => e.imports === target)) return null;
    if (inWing(target, "sandbox") && wing !== "sandbox") return "only the sandbox (lib/sandbox, app/sandbox) imports the sandbox";
    const resolved = fileOf(target);
    const targetSource = resolved ? read(resolved) : "";
    if (browser && !typeOnly && !isServerActions(targetSource)) {
      if (inWing(target, "console") || inWing(target, "platform")) return "browser code imports server code";
      if (isServerOnly(targetSource)) return `browser code imports a server-only module (${resolved})`;
    }
    if (file.startsWith("lib/") && !target.startsWith("lib/")) return "lib/ imports only lib/ and packages";
    if (wing && target.startsWith("lib/")) {
      const targetWing = wingOf(`${target}/`);
      if (!targetWing) return "lib/ has only its wings";
      if (!ALLOWED[wing].includes(targetWing)) return `lib/${wing} may import only ${ALLOWED[wing].map((w) => `lib/${w}`).join(", ")}`;
    }
    if (wing === "contract" && !inWing(target, "contract")) return "the contract imports only the contract";
    return null;
  };
  return importsOf(source).flatMap((i) => {
    const reason = why(i);
    return reason ? [`${file} imports "${i.specifier}": ${reason}`] : [];
  });
}

/** lib/browser, the "use client" modules, and every module they import at run time, followed to the end. */
function browserModules(files: string[], read: (file: string) => string): Set<string> {
  const reached = new Set(files.filter((f) => wingOf(f) === "browser" || isClient(read(f))));
  const queue = [...reached];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const { specifier, typeOnly } of importsOf(read(file))) {
      const target = resolve(file, specifier);
      const next = target === null || typeOnly ? null : fileOf(target);
      if (next && !reached.has(next) && !isServerActions(read(next))) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  return reached;
}

describe("the wings of lib/ (ARCHITECTURE.md §8)", () => {
  const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
  const files = SCANNED.flatMap(sourceFiles);
  const browser = browserModules(files, read);

  it("lib/ holds the wings and nothing else", () => {
    expect(readdirSync(path.join(ROOT, "lib")).sort()).toEqual(["browser", "console", "contract", "platform", "sandbox"]);
  });

  it("every import stays inside what its wing may import", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => violations(file, read(file), read, browser.has(file)))).toEqual([]);
  });

  it("every exception names a file and an import that exist", () => {
    for (const [file, allowed] of Object.entries(EXCEPTIONS)) {
      const imports = importsOf(read(file)).map((i) => resolve(file, i.specifier));
      for (const e of allowed) expect(imports, `${file} → ${e.imports} (${e.reason})`).toContain(e.imports);
    }
  });

  it("finds the crossings it is meant to find", () => {
    const none = () => "";
    expect(violations("lib/console/x.ts", 'import { a } from "@/lib/sandbox/keys";', none)).toHaveLength(1);
    expect(violations("components/x.tsx", '"use client";\nimport { env } from "@/lib/platform/env";', none)).toHaveLength(1);
    expect(violations("lib/browser/x.ts", 'import "server-only";', none)).toHaveLength(1);
    expect(violations("lib/contract/x.ts", 'import { readFile } from "node:fs";', none)).toHaveLength(1);
    expect(violations("lib/contract/x.ts", 'import { env } from "../platform/env";', none)).toHaveLength(1);
    expect(violations("lib/sandbox/x.ts", 'import { b } from "@/lib/console/auth/session";', none)).toHaveLength(1);
    expect(violations("lib/platform/x.ts", 'import { h } from "@/scripts/server/metrics-registry.mjs";', none)).toHaveLength(1);
    expect(violations("lib/console/x.ts", 'import { p } from "../../proxy";', none)).toHaveLength(1);
    expect(violations("lib/sandbox/x.ts", 'import { b } from "@/lib/contract";\nimport "server-only";', none)).toEqual([]);
    expect(
      violations("components/x.tsx", '"use client";\nimport type { VolumePoint } from "@/lib/console/overview/overview";', none),
    ).toEqual([]);
  });
});
