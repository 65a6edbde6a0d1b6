import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/platform/db/client";

/*
 * Vitest's global setup: one in-memory database migrated once, its files written to a temporary tar that every
 * test file's throwaway PGlite starts from (./use-pglite-template.ts), instead of each running every migration.
 */
export default async function setup(project: TestProject) {
  const { db, close } = await openDatabase("memory://");
  const client = (db as unknown as { $client: { dumpDataDir: (compression: "none") => Promise<Blob> } }).$client;
  const file = path.join(os.tmpdir(), `invoice-console-pglite-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
  await close();
  project.provide("pgliteTemplate", file);
  return () => rmSync(file, { force: true });
}
