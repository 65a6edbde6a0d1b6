CREATE TABLE "console"."search_invoices" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"order_id" text,
	"order_name" text,
	"status" text,
	"fiat_amount" numeric,
	"fiat_currency" text,
	"crypto_amount" numeric,
	"currency" text,
	"created_at" timestamp with time zone,
	"updated_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', regexp_replace(coalesce(order_name, '') || ' ' || coalesce(order_id, ''), '[-_/.#:]+', ' ', 'g'))) STORED,
	"indexed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."search_sync" (
	"id" text PRIMARY KEY NOT NULL,
	"fill_page" integer DEFAULT 1,
	"fill_total_records" integer,
	"fill_started_at" timestamp with time zone,
	"fill_completed_at" timestamp with time zone,
	"high_water" timestamp with time zone,
	"fresh_as_of" timestamp with time zone,
	"next_try_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paused_reason" text,
	"paused_detail" text,
	"lease_until" timestamp with time zone,
	"lease_holder" text,
	"upstream_calls" integer DEFAULT 0 NOT NULL,
	"last_walk_ms" integer,
	"last_walk_calls" integer
);
--> statement-breakpoint
CREATE INDEX "search_invoices_updated_idx" ON "console"."search_invoices" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "search_invoices_vector_idx" ON "console"."search_invoices" USING gin ("search_vector");--> statement-breakpoint
-- Hand-written (issue 15), kept at the end for whoever renumbers this migration: the expression indexes the
-- search's arms read (lib/search/store.ts). text_pattern_ops serves `=` and `like 'prefix%'` in any collation;
-- the reversed id serves a tail of the id (a bare UUID finding invoice_<uuid>).
CREATE INDEX "search_invoices_order_id_idx" ON "console"."search_invoices" (lower("order_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "search_invoices_invoice_id_idx" ON "console"."search_invoices" (lower("invoice_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "search_invoices_invoice_id_tail_idx" ON "console"."search_invoices" (reverse(lower("invoice_id")) text_pattern_ops);
