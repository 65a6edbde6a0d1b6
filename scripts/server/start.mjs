#!/usr/bin/env node
// `npm start`: builds once if there is no build yet, then serves it with scripts/server/server.mjs.
// PORT (default 3000) chooses the port; extra arguments go to the server (e.g. `npm start -- -H 127.0.0.1`),
// except a port: the console reaches its embedded sandbox through PORT, so that is the one way to set it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withTelemetryDefault } from "../next-telemetry.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const next = path.join(root, "node_modules", ".bin", process.platform === "win32" ? "next.cmd" : "next");

/** The child currently running, so that a signal to this process reaches it. */
let child;

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    else process.exit(128 + os.constants.signals[signal]);
  });
}

function run(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    child = spawn(command, args, { cwd: root, stdio: "inherit", env, shell: process.platform === "win32" });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
}

/** Exits as the child did; a child killed by a signal gives the shell's 128 + signal number. */
function exitLike({ code, signal }) {
  process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1));
}

if (!existsSync(next)) {
  console.error(`start: ${path.relative(root, next)} not found; run \`npm install\` first.`);
  process.exit(1);
}

if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log(
    "start: Building the console (first start only, about 3–4 minutes on two cores; `next build`, since .next/BUILD_ID is missing)…",
  );
  // Next.js is silent for minutes while it compiles: a line every 30 s says the build is still going.
  const started = Date.now();
  const ticker = setInterval(() => console.log(`start: still building (${minutesAndSeconds(Date.now() - started)} so far)…`), 30_000);
  // The server applies the telemetry default itself; the build gets it here, on a copy, so the wish reaches both.
  const built = await run(next, ["build"], withTelemetryDefault({ ...process.env })).finally(() => clearInterval(ticker));
  if (built.code !== 0) {
    console.error("start: `next build` failed; not starting the server.");
    exitLike(built.signal ? built : { code: built.code || 1 });
  }
  console.log(`start: built in ${minutesAndSeconds(Date.now() - started)}; starting the server…`);
}

function minutesAndSeconds(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const extra = process.argv.slice(2);
if (extra.some((arg) => arg === "-p" || arg === "--port" || arg.startsWith("--port="))) {
  console.error("start: set the port with PORT=4000 npm start, not -p: the console finds its embedded sandbox through PORT.");
  process.exit(2);
}
exitLike(await run(process.execPath, [path.join(root, "scripts", "server", "server.mjs"), ...extra]));
