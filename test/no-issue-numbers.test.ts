// Code says the rule, not the ticket it came from: git keeps the history, and an issue number tells the next
// reader nothing. The migrations under drizzle/ are history already applied, and stay as they were written.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const folders = ["app", "components", "e2e", "lib", "scripts", "test", "docs"];
const source = /\.(ts|tsx|mjs|js|css|md)$/;

function files(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && source.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

it("no source file, test or document cites an issue number", () => {
  const rootFiles = readdirSync(root).filter((name) => source.test(name));
  const cited = [...rootFiles, ...folders.flatMap(files)].flatMap((file) =>
    readFileSync(path.join(root, file), "utf8")
      .split("\n")
      .flatMap((line, index) => (/\bissues? #?\d+\b/i.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 120)}`] : [])),
  );
  expect(cited).toEqual([]);
});
