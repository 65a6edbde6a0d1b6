// The README and docs/ name files and commands; a newcomer follows them. Every repository path named in inline code
// (`lib/…`, `app/…`, `scripts/…`, …) must exist, and every `npm run X` they show must be a script of package.json.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const documents = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const scripts = Object.keys(JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>);

const repositoryPath = /^(?:lib|app|components|scripts|drizzle|e2e|test|public|docs|\.ci)\/\S*$/;

/** A document without its fenced blocks (their lines left empty, so line numbers hold). */
function prose(text: string): string {
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (line.trimStart().startsWith("```")) {
        fenced = !fenced;
        return "";
      }
      return fenced ? "" : line;
    })
    .join("\n");
}

/** Repository paths in a document's inline code spans (a span may wrap a line), with their lines. */
function namedPaths(text: string): { path: string; line: number }[] {
  const outside = prose(text);
  const found: { path: string; line: number }[] = [];
  for (const match of outside.matchAll(/`([^`]+)`/g)) {
    const line = outside.slice(0, match.index).split("\n").length;
    for (const token of match[1].split(/\s+/)) {
      if (repositoryPath.test(token)) found.push({ path: token, line });
    }
  }
  return found;
}

/** The anchors GitHub gives a document's headings. */
function anchors(text: string): Set<string> {
  const headings = [...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1]);
  return new Set(
    headings.map((heading) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

/** A path as it lies on disk: a glob (`app/(console)/*`) stands for its folder, `…` for the folder it is in. */
function onDisk(named: string): string {
  const wild = named.search(/[*…<]/);
  const plain = wild === -1 ? named : named.slice(0, named.lastIndexOf("/", wild) + 1);
  return path.join(root, plain);
}

describe.each(documents)("%s", (document) => {
  const text = readFileSync(path.join(root, document), "utf8");

  it("names only paths that exist", () => {
    const missing = namedPaths(text)
      .filter(({ path: named }) => !existsSync(onDisk(named)))
      .map(({ path: named, line }) => `${document}:${line} ${named}`);
    expect(missing).toEqual([]);
  });

  it("links only to documents and headings that exist", () => {
    const broken = [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1])
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => {
        const [file, anchor] = target.split("#");
        const linked = file ? path.join(root, path.dirname(document), file) : path.join(root, document);
        if (!existsSync(linked)) return true;
        return anchor !== undefined && linked.endsWith(".md") && !anchors(readFileSync(linked, "utf8")).has(anchor);
      });
    expect(broken).toEqual([]);
  });

  it("shows only npm scripts that exist", () => {
    // `npm run bench:*` names a family: some script must begin so.
    const unknown = [...text.matchAll(/npm run ([\w:.-]+\*?)/g)]
      .map((match) => match[1])
      .filter((name) => (name.endsWith("*") ? !scripts.some((script) => script.startsWith(name.slice(0, -1))) : !scripts.includes(name)));
    expect(unknown).toEqual([]);
  });
});

it("checks the README and at least the six docs", () => {
  expect(documents.length).toBeGreaterThanOrEqual(7);
  expect(namedPaths("see `lib/contract/money.ts` and `npm run x`")).toEqual([{ path: "lib/contract/money.ts", line: 1 }]);
});
