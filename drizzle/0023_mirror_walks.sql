-- Hand-written: the mirror's views at any depth (lib/console/search/views.ts), as the sandbox's list.
-- A page is found by walking one (status, sort key, id) index per status, merged in order; each index holds the
-- currency and created_at a view filters by, so the walk never reads the table (index-only, once vacuumed).
DROP INDEX "console"."search_invoices_status_created_idx";
--> statement-breakpoint
CREATE INDEX "search_invoices_status_created_idx" ON "console"."search_invoices" ("status", "created_at", "invoice_id") INCLUDE ("currency");
--> statement-breakpoint
CREATE INDEX "search_invoices_status_updated_idx" ON "console"."search_invoices" ("status", "updated_at", "invoice_id") INCLUDE ("currency", "created_at");
--> statement-breakpoint
CREATE INDEX "search_invoices_status_fiat_idx" ON "console"."search_invoices" ("status", "fiat_amount", "invoice_id") INCLUDE ("currency", "created_at");
--> statement-breakpoint
CREATE INDEX "search_invoices_status_crypto_idx" ON "console"."search_invoices" ("status", "crypto_amount", "invoice_id") INCLUDE ("currency", "created_at");
--> statement-breakpoint
-- A text query's matches and the edges of a range are read from the table: keep its rows narrow. The whole invoice
-- (a kilobyte or more) is stored out of line, read only for the page's rows. Rows written before keep it inline
-- until their next write.
ALTER TABLE "console"."search_invoices" ALTER COLUMN "document" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "console"."search_invoices" SET (toast_tuple_target = 512);
