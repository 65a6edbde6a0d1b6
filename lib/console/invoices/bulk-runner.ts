import "server-only";
import { upstream } from "@/lib/console/upstream/client";
import { getDatabase } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";
import { runBulkJob, unfinishedJobIds } from "./bulk-cancel";

/**
 * Runs a bulk job in the background of this process (the person's request has long been answered). A job
 * another instance holds is left to it; one whose holder stopped is taken over once its lease runs out.
 */
export function runInBackground(jobId: string): void {
  void getDatabase()
    .then((db) => runBulkJob({ db, upstream: upstream() }, jobId))
    .catch((error) => log.error({ err: error }, `bulk job ${jobId}: stopped, resumed on the next look or start`));
}

/** At start: the jobs an earlier run left unfinished go on. */
export async function resumeBulkJobs(): Promise<void> {
  for (const id of await unfinishedJobIds(await getDatabase())) runInBackground(id);
}
