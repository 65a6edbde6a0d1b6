// `npm run audit:verify`: walks the audit log's hash chain (lib/console/activity/chain.ts) and says whether every
// entry is as it was written. Exits 0 when it is, 1 when an entry does not match (naming the first), 2 on error.
// Prints the newest entry's number and hash: keep them, and a later run shows whether entries were removed since.
//
// Uses DATA_DIR / DATABASE_URL like the console. On the embedded PGlite database, stop the console first.
import { verifyChain } from "@/lib/console/activity/chain";
import { closeDatabase, getDatabase } from "@/lib/platform/db";

async function main(): Promise<number> {
  const db = await getDatabase();
  const started = performance.now();
  const result = await verifyChain(db);
  const seconds = (performance.now() - started) / 1000;
  const rate = seconds > 0 ? Math.round(result.verified / seconds) : result.verified;
  console.log(JSON.stringify(result));
  if (result.first_broken) {
    console.error(
      `The audit log does not verify: entry ${result.first_broken.seq} (${result.first_broken.at}) is not as it was written, or the one before it was removed. ${result.verified} entries before it verify.`,
    );
    return 1;
  }
  console.error(
    `${result.verified} entries verified in ${seconds.toFixed(2)} s (${rate} a second).` +
      (result.head ? ` Newest: #${result.head.seq}, hash ${result.head.hash}.` : ""),
  );
  return 0;
}

main()
  .then(async (code) => {
    await closeDatabase();
    process.exit(code);
  })
  .catch(async (error) => {
    console.error(error instanceof Error ? error.message : error);
    await closeDatabase().catch(() => {});
    process.exit(2);
  });
