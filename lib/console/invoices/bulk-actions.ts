"use server";

import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { REASON_MAX, searchParamsToObject } from "@/lib/contract";
import { invoiceViewQuerySchema } from "@/lib/contract/invoice-view";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { createBulkCancel, readBulkJob, retryFailed, viewInvoiceIds } from "./bulk-cancel";
import { runInBackground } from "./bulk-runner";
import { listView } from "./views";

const startSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { error: "Say why these invoices are cancelled: it goes into each one's audit trail." })
    .max(REASON_MAX, { error: `must be at most ${REASON_MAX} characters` }),
  /** The selected invoices' ids, separated by commas or new lines… */
  ids: z.string().optional(),
  /** …or every invoice of a view: the list's query string. */
  view: z.string().optional(),
});

/** Bulk cancel (issue 24): records the job, starts it, and answers with its id for the page to follow. */
export const startBulkCancelAction = guardedAction("invoices:change_status", startSchema, async (input, user) => {
  let ids: string[];
  if (input.view !== undefined) {
    const parsed = invoiceViewQuerySchema.safeParse(searchParamsToObject(new URLSearchParams(input.view)));
    if (!parsed.success) throw Problem.fromZod(parsed.error, "view");
    ids = await viewInvoiceIds(listView, parsed.data);
  } else {
    ids = (input.ids ?? "").split(/[\s,]+/);
  }
  const jobId = await createBulkCancel(await getDatabase(), user!, ids, input.reason);
  runInBackground(jobId);
  return { ok: "Cancelling…", jobId, answeredAt: Date.now() };
});

/** "Try again" for the invoices whose change failed (no answer, a provider error); refused ones stay refused. */
export const retryBulkCancelAction = guardedAction("invoices:change_status", z.object({ job: z.string() }), async ({ job }, user) => {
  const db = await getDatabase();
  if (!(await readBulkJob(db, user!, job))) throw Problem.of("not_found", { detail: "No bulk cancel of yours has this id." });
  const n = await retryFailed(db, job);
  runInBackground(job);
  return { ok: n ? `Trying ${n} again…` : "Nothing failed: nothing to try again.", jobId: job, answeredAt: Date.now() };
});
