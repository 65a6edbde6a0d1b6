CREATE TABLE "sandbox"."invoice_day_buckets" (
	"merchant_id" uuid NOT NULL,
	"sort_by" text NOT NULL,
	"day" date NOT NULL,
	"bucket" numeric NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "invoice_day_buckets_merchant_id_sort_by_day_bucket_pk" PRIMARY KEY("merchant_id","sort_by","day","bucket")
);
--> statement-breakpoint
DROP INDEX "sandbox"."invoices_created_at_idx";--> statement-breakpoint
ALTER TABLE "sandbox"."invoices" ADD COLUMN "fiat_bucket" numeric GENERATED ALWAYS AS (sandbox.amount_bucket(fiat_amount)) STORED;--> statement-breakpoint
ALTER TABLE "sandbox"."invoices" ADD COLUMN "crypto_bucket" numeric GENERATED ALWAYS AS (sandbox.amount_bucket(crypto_amount)) STORED;--> statement-breakpoint
ALTER TABLE "sandbox"."invoice_day_buckets" ADD CONSTRAINT "invoice_day_buckets_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "sandbox"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_created_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","created_at","id","status","currency","fiat_bucket","crypto_bucket");--> statement-breakpoint
-- Hand-written (issue 13), not generated: the triggers that keep sandbox.invoice_day_buckets equal to the
-- invoices in every transaction, and its backfill, in the way of invoice_sort_buckets (drizzle/0008): the
-- amounts' buckets (the generated columns fiat_bucket and crypto_bucket) per UTC day of created_at.
CREATE FUNCTION "sandbox"."invoice_day_keys"(created_at timestamptz, fiat_bucket numeric, crypto_bucket numeric)
  RETURNS TABLE (sort_by text, day date, bucket numeric) LANGUAGE sql STABLE AS $$
  VALUES ('fiat_amount', (created_at AT TIME ZONE 'UTC')::date, fiat_bucket),
         ('crypto_amount', (created_at AT TIME ZONE 'UTC')::date, crypto_bucket)
$$;
--> statement-breakpoint
CREATE FUNCTION "sandbox"."invoice_day_buckets_add"(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "sandbox"."invoice_day_buckets" AS t ("merchant_id", "sort_by", "day", "bucket", "count")
  SELECT (c->>'merchant_id')::uuid, c->>'sort_by', (c->>'day')::date, (c->>'bucket')::numeric, sum((c->>'delta')::bigint)
  FROM jsonb_array_elements(changes) AS c
  GROUP BY 1, 2, 3, 4 HAVING sum((c->>'delta')::bigint) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("merchant_id", "sort_by", "day", "bucket") DO UPDATE SET "count" = t."count" + excluded."count"
$$;
--> statement-breakpoint
CREATE FUNCTION "sandbox"."invoice_day_buckets_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "sandbox"."invoice_day_buckets_add"((SELECT jsonb_agg(g) FROM (
      SELECT r."merchant_id", k.sort_by, k.day, k.bucket, count(*) AS delta
      FROM new_rows AS r, "sandbox"."invoice_day_keys"(r."created_at", r."fiat_bucket", r."crypto_bucket") AS k
      GROUP BY 1, 2, 3, 4) AS g));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "sandbox"."invoice_day_buckets_add"((SELECT jsonb_agg(g) FROM (
      SELECT "merchant_id", sort_by, day, bucket, sum(delta) AS delta FROM (
        SELECT r."merchant_id", k.sort_by, k.day, k.bucket, 1 AS delta
        FROM new_rows AS r, "sandbox"."invoice_day_keys"(r."created_at", r."fiat_bucket", r."crypto_bucket") AS k
        UNION ALL
        SELECT r."merchant_id", k.sort_by, k.day, k.bucket, -1
        FROM old_rows AS r, "sandbox"."invoice_day_keys"(r."created_at", r."fiat_bucket", r."crypto_bucket") AS k
      ) AS moves GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0) AS g));
  ELSE
    PERFORM "sandbox"."invoice_day_buckets_add"((SELECT jsonb_agg(g) FROM (
      SELECT r."merchant_id", k.sort_by, k.day, k.bucket, -count(*) AS delta
      FROM old_rows AS r, "sandbox"."invoice_day_keys"(r."created_at", r."fiat_bucket", r."crypto_bucket") AS k
      GROUP BY 1, 2, 3, 4) AS g));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "invoice_day_buckets_on_insert" AFTER INSERT ON "sandbox"."invoices"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_day_buckets_apply"();
--> statement-breakpoint
CREATE TRIGGER "invoice_day_buckets_on_update" AFTER UPDATE ON "sandbox"."invoices"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_day_buckets_apply"();
--> statement-breakpoint
CREATE TRIGGER "invoice_day_buckets_on_delete" AFTER DELETE ON "sandbox"."invoices"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_day_buckets_apply"();
--> statement-breakpoint
-- The backfill, after the triggers: creating them locked out writers until this migration commits.
SELECT "sandbox"."invoice_day_buckets_add"((SELECT jsonb_agg(g) FROM (
  SELECT r."merchant_id", k.sort_by, k.day, k.bucket, count(*) AS delta
  FROM "sandbox"."invoices" AS r, "sandbox"."invoice_day_keys"(r."created_at", r."fiat_bucket", r."crypto_bucket") AS k
  GROUP BY 1, 2, 3, 4) AS g));
