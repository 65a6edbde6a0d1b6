CREATE TABLE "console"."bulk_job_items" (
	"job_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"invoice_id" text NOT NULL,
	"outcome" text,
	"detail" text,
	"from_status" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "bulk_job_items_job_id_position_pk" PRIMARY KEY("job_id","position")
);
--> statement-breakpoint
CREATE TABLE "console"."bulk_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"created_by" text NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"lease_holder" text
);
--> statement-breakpoint
CREATE TABLE "console"."mirror_totals" (
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"fiat_currency" text NOT NULL,
	"day" date NOT NULL,
	"count" bigint NOT NULL,
	"fiat_sum" numeric NOT NULL,
	"crypto_sum" numeric NOT NULL,
	CONSTRAINT "mirror_totals_status_currency_fiat_currency_day_pk" PRIMARY KEY("status","currency","fiat_currency","day")
);
--> statement-breakpoint
CREATE TABLE "console"."saved_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"owner_id" text NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console"."search_invoices" ADD COLUMN "document" text;--> statement-breakpoint
ALTER TABLE "console"."bulk_job_items" ADD CONSTRAINT "bulk_job_items_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "console"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."saved_views" ADD CONSTRAINT "saved_views_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "console"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_job_items_pending_idx" ON "console"."bulk_job_items" USING btree ("job_id","outcome");--> statement-breakpoint
CREATE INDEX "bulk_jobs_created_by_idx" ON "console"."bulk_jobs" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE INDEX "saved_views_owner_idx" ON "console"."saved_views" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "search_invoices_created_idx" ON "console"."search_invoices" USING btree ("created_at","invoice_id");--> statement-breakpoint
CREATE INDEX "search_invoices_status_created_idx" ON "console"."search_invoices" USING btree ("status","created_at","invoice_id");--> statement-breakpoint
-- Hand-written (issue 24), not generated: the triggers that keep console.mirror_totals equal to the mirror
-- (console.search_invoices) in every transaction that writes it, and its backfill — the pattern of
-- sandbox.invoice_counts (0006_list_totals.sql), with sums beside the counts. Absent values are '' in the key;
-- an invoice without created_at is on day '-infinity'. Upserted in key order: concurrent writers lock the
-- shared rows in one order.
CREATE FUNCTION "console"."mirror_totals_add"(changes jsonb) RETURNS void LANGUAGE sql AS $$
  WITH per_day AS (
    SELECT c->>'status' AS status, c->>'currency' AS currency, c->>'fiat_currency' AS fiat_currency,
           (c->>'day')::date AS day, (c->>'n')::bigint AS n, (c->>'fiat')::numeric AS fiat, (c->>'crypto')::numeric AS crypto
    FROM jsonb_array_elements(changes) AS c
  ),
  keyed AS (
    SELECT status, currency, fiat_currency, day, n, fiat, crypto FROM per_day
    UNION ALL
    SELECT status, currency, fiat_currency, 'infinity'::date, n, fiat, crypto FROM per_day
  )
  INSERT INTO "console"."mirror_totals" AS t ("status", "currency", "fiat_currency", "day", "count", "fiat_sum", "crypto_sum")
  SELECT status, currency, fiat_currency, day, sum(n), sum(fiat), sum(crypto) FROM keyed
  GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(fiat) <> 0 OR sum(crypto) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("status", "currency", "fiat_currency", "day") DO UPDATE SET
    "count" = t."count" + excluded."count",
    "fiat_sum" = t."fiat_sum" + excluded."fiat_sum",
    "crypto_sum" = t."crypto_sum" + excluded."crypto_sum"
$$;
--> statement-breakpoint
CREATE FUNCTION "console"."mirror_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "console"."mirror_totals_add"((SELECT jsonb_agg(g) FROM (
      SELECT coalesce("status", '') AS status, coalesce("currency", '') AS currency, coalesce("fiat_currency", '') AS fiat_currency,
             coalesce(("created_at" AT TIME ZONE 'UTC')::date, '-infinity') AS day,
             count(*) AS n, sum(coalesce("fiat_amount", 0)) AS fiat, sum(coalesce("crypto_amount", 0)) AS crypto
      FROM new_rows GROUP BY 1, 2, 3, 4) AS g));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "console"."mirror_totals_add"((SELECT jsonb_agg(g) FROM (
      SELECT status, currency, fiat_currency, day, sum(n) AS n, sum(fiat) AS fiat, sum(crypto) AS crypto FROM (
        SELECT coalesce("status", '') AS status, coalesce("currency", '') AS currency, coalesce("fiat_currency", '') AS fiat_currency,
               coalesce(("created_at" AT TIME ZONE 'UTC')::date, '-infinity') AS day,
               1 AS n, coalesce("fiat_amount", 0) AS fiat, coalesce("crypto_amount", 0) AS crypto FROM new_rows
        UNION ALL
        SELECT coalesce("status", ''), coalesce("currency", ''), coalesce("fiat_currency", ''),
               coalesce(("created_at" AT TIME ZONE 'UTC')::date, '-infinity'),
               -1, -coalesce("fiat_amount", 0), -coalesce("crypto_amount", 0) FROM old_rows
      ) AS moves GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(fiat) <> 0 OR sum(crypto) <> 0) AS g));
  ELSE
    PERFORM "console"."mirror_totals_add"((SELECT jsonb_agg(g) FROM (
      SELECT coalesce("status", '') AS status, coalesce("currency", '') AS currency, coalesce("fiat_currency", '') AS fiat_currency,
             coalesce(("created_at" AT TIME ZONE 'UTC')::date, '-infinity') AS day,
             -count(*) AS n, -sum(coalesce("fiat_amount", 0)) AS fiat, -sum(coalesce("crypto_amount", 0)) AS crypto
      FROM old_rows GROUP BY 1, 2, 3, 4) AS g));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "mirror_totals_on_insert" AFTER INSERT ON "console"."search_invoices"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "console"."mirror_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "mirror_totals_on_update" AFTER UPDATE ON "console"."search_invoices"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "console"."mirror_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "mirror_totals_on_delete" AFTER DELETE ON "console"."search_invoices"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "console"."mirror_totals_apply"();
--> statement-breakpoint
SELECT "console"."mirror_totals_add"((SELECT jsonb_agg(g) FROM (
  SELECT coalesce("status", '') AS status, coalesce("currency", '') AS currency, coalesce("fiat_currency", '') AS fiat_currency,
         coalesce(("created_at" AT TIME ZONE 'UTC')::date, '-infinity') AS day,
         count(*) AS n, sum(coalesce("fiat_amount", 0)) AS fiat, sum(coalesce("crypto_amount", 0)) AS crypto
  FROM "console"."search_invoices" GROUP BY 1, 2, 3, 4) AS g));
--> statement-breakpoint
-- Rows indexed before the mirror lack their document: the first fill runs again (resumable, as before).
UPDATE "console"."search_sync" SET "fill_page" = 1, "fill_started_at" = NULL, "fill_completed_at" = NULL, "fresh_as_of" = NULL;
