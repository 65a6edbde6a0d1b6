import "server-only";
import { context, isSpanContextValid, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { upstream } from "@/lib/console/upstream/client";
import { getDatabase } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";
import { outsideRequest } from "@/lib/platform/server-lifecycle";
import { runBulkJob, unfinishedJobIds } from "./bulk-cancel";

const tracer = trace.getTracer("invoice-console");

/**
 * Runs a bulk job in the background of this process (the person's request has long been answered). A job
 * another instance holds is left to it; one whose holder stopped is taken over once its lease runs out.
 * The job is nobody's request: it runs outside the one that started it (no X-Request-Id on its log lines), in a
 * trace of its own whose span links back to that request's (ARCHITECTURE.md §2).
 */
export function runInBackground(jobId: string): void {
  const requested = trace.getActiveSpan()?.spanContext();
  const links = requested && isSpanContextValid(requested) ? [{ context: requested }] : [];
  outsideRequest(() =>
    context.with(ROOT_CONTEXT, () =>
      tracer.startActiveSpan("bulk job", { root: true, links }, (span) => {
        void getDatabase()
          .then((db) => runBulkJob({ db, upstream: upstream() }, jobId))
          .catch((error) => log.error({ err: error }, `bulk job ${jobId}: stopped, resumed by the next sweep (lib/console/startup.ts)`))
          .finally(() => span.end());
      }),
    ),
  );
}

/** At start and every minute: the jobs left unfinished by an instance that stopped go on. */
export async function resumeBulkJobs(): Promise<void> {
  for (const id of await unfinishedJobIds(await getDatabase())) runInBackground(id);
}
