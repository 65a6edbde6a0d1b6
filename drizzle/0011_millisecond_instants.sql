-- Hand-written (issue 22): the sandbox's instants are millisecond-precise, as its answers give them. Seeded
-- rows were stored with microseconds, so `created_after=<an invoice's own created_at>` (a millisecond
-- instant, from the answer) still returned that invoice. Truncated in place; no UTC day changes (the
-- rollups key on days), and the statement triggers of 0006, 0008 and 0010 keep invoice_counts,
-- invoice_sort_buckets and invoice_day_buckets in step with the update all the same. Truncating both
-- created_at and updated_at keeps updated_at >= created_at (0009).
UPDATE "sandbox"."invoices" SET
  "created_at" = date_trunc('milliseconds', "created_at"),
  "updated_at" = date_trunc('milliseconds', "updated_at"),
  "expires_at" = date_trunc('milliseconds', "expires_at"),
  "paid_at" = date_trunc('milliseconds', "paid_at")
WHERE "created_at" <> date_trunc('milliseconds', "created_at")
  OR "updated_at" <> date_trunc('milliseconds', "updated_at")
  OR "expires_at" <> date_trunc('milliseconds', "expires_at")
  OR "paid_at" <> date_trunc('milliseconds', "paid_at");--> statement-breakpoint
UPDATE "sandbox"."transactions" SET "seen_at" = date_trunc('milliseconds', "seen_at")
WHERE "seen_at" <> date_trunc('milliseconds', "seen_at");
