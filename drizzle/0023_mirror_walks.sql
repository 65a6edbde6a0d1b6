-- The mirror's views at any depth (lib/console/search/views.ts), as the sandbox's list. A page is found by walking
-- one (status, sort key, id) index per status, merged in order; each index holds the currency and created_at a
-- view filters by, so the walk never reads the table (index-only, once vacuumed). The whole invoice moves beside
-- the row: the rows that text queries and the edges of a range read stay narrow. Hand-written after the first
-- three statements, which drizzle-kit generated.
CREATE TABLE "console"."mirror_documents" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"document" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console"."mirror_documents" ADD CONSTRAINT "mirror_documents_invoice_id_search_invoices_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "console"."search_invoices"("invoice_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "console"."mirror_documents" ("invoice_id", "document")
  SELECT "invoice_id", "document" FROM "console"."search_invoices" WHERE "document" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "console"."search_invoices" DROP COLUMN "document";
--> statement-breakpoint
DROP INDEX "console"."search_invoices_status_created_idx";
--> statement-breakpoint
-- By created_at it also holds the amounts: the partial days at a range's edges are summed from it alone.
CREATE INDEX "search_invoices_status_created_idx" ON "console"."search_invoices" ("status", "created_at", "invoice_id") INCLUDE ("currency", "fiat_currency", "fiat_amount", "crypto_amount");
--> statement-breakpoint
CREATE INDEX "search_invoices_status_updated_idx" ON "console"."search_invoices" ("status", "updated_at", "invoice_id") INCLUDE ("currency", "created_at");
--> statement-breakpoint
CREATE INDEX "search_invoices_status_fiat_idx" ON "console"."search_invoices" ("status", "fiat_amount", "invoice_id") INCLUDE ("currency", "created_at");
--> statement-breakpoint
CREATE INDEX "search_invoices_status_crypto_idx" ON "console"."search_invoices" ("status", "crypto_amount", "invoice_id") INCLUDE ("currency", "created_at");
--> statement-breakpoint
-- A view's currency is matched in any case (lower(currency)): without statistics of that expression the planner
-- takes it for a rare value and sorts a whole status instead of walking its index.
CREATE STATISTICS "console"."search_invoices_currency_lower" ON (lower("currency")) FROM "console"."search_invoices";
