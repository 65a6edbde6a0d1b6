CREATE TABLE "sandbox"."invoice_sort_buckets" (
	"merchant_id" uuid NOT NULL,
	"sort_by" text NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"bucket" numeric NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "invoice_sort_buckets_merchant_id_sort_by_status_currency_bucket_pk" PRIMARY KEY("merchant_id","sort_by","status","currency","bucket")
);
--> statement-breakpoint
ALTER TABLE "sandbox"."invoice_sort_buckets" ADD CONSTRAINT "invoice_sort_buckets_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "sandbox"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written (issue 13), not generated: the triggers that keep sandbox.invoice_sort_buckets equal to the
-- invoices in every transaction, and its backfill, in the way of invoice_counts (drizzle/0006). A bucket is the
-- smallest key its invoices can have: for an amount, the amount cut to its first two significant digits
-- (13.99 → 13, 0.0012345 → 0.0012); for updated_at, the epoch second of its UTC midnight. Both are monotone and
-- map a bucket to itself, so "key >= bucket" selects exactly the invoices of that bucket and the ones after it.
-- It is trunc(amount, 1 - floor(log(amount))), with the digits counted in the amount's text: numeric log()
-- costs several times as much, and is paid for every row of a backfill and of a range's edge days.
CREATE FUNCTION "sandbox"."amount_bucket"(amount numeric) RETURNS numeric LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE
    WHEN amount >= 1 THEN trunc(amount, 2 - length(trunc(amount)::text))
    WHEN amount > 0 THEN trunc(amount, 2 + length(split_part(amount::text, '.', 2)) - length(ltrim(split_part(amount::text, '.', 2), '0')))
    ELSE amount END
$$;
--> statement-breakpoint
CREATE FUNCTION "sandbox"."invoice_sort_keys"(updated_at timestamptz, fiat_amount numeric, crypto_amount numeric)
  RETURNS TABLE (sort_by text, bucket numeric) LANGUAGE sql STABLE AS $$
  VALUES ('updated_at', floor(extract(epoch FROM updated_at) / 86400) * 86400),
         ('fiat_amount', "sandbox"."amount_bucket"(fiat_amount)),
         ('crypto_amount', "sandbox"."amount_bucket"(crypto_amount))
$$;
--> statement-breakpoint
CREATE FUNCTION "sandbox"."invoice_sort_buckets_add"(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "sandbox"."invoice_sort_buckets" AS t ("merchant_id", "sort_by", "status", "currency", "bucket", "count")
  SELECT (c->>'merchant_id')::uuid, c->>'sort_by', c->>'status', c->>'currency', (c->>'bucket')::numeric, sum((c->>'delta')::bigint)
  FROM jsonb_array_elements(changes) AS c
  GROUP BY 1, 2, 3, 4, 5 HAVING sum((c->>'delta')::bigint) <> 0 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("merchant_id", "sort_by", "status", "currency", "bucket") DO UPDATE SET "count" = t."count" + excluded."count"
$$;
--> statement-breakpoint
CREATE FUNCTION "sandbox"."invoice_sort_buckets_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "sandbox"."invoice_sort_buckets_add"((SELECT jsonb_agg(g) FROM (
      SELECT r."merchant_id", k.sort_by, r."status", r."currency", k.bucket, count(*) AS delta
      FROM new_rows AS r, "sandbox"."invoice_sort_keys"(r."updated_at", r."fiat_amount", r."crypto_amount") AS k
      GROUP BY 1, 2, 3, 4, 5) AS g));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "sandbox"."invoice_sort_buckets_add"((SELECT jsonb_agg(g) FROM (
      SELECT "merchant_id", sort_by, "status", "currency", bucket, sum(delta) AS delta FROM (
        SELECT r."merchant_id", k.sort_by, r."status", r."currency", k.bucket, 1 AS delta
        FROM new_rows AS r, "sandbox"."invoice_sort_keys"(r."updated_at", r."fiat_amount", r."crypto_amount") AS k
        UNION ALL
        SELECT r."merchant_id", k.sort_by, r."status", r."currency", k.bucket, -1
        FROM old_rows AS r, "sandbox"."invoice_sort_keys"(r."updated_at", r."fiat_amount", r."crypto_amount") AS k
      ) AS moves GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0) AS g));
  ELSE
    PERFORM "sandbox"."invoice_sort_buckets_add"((SELECT jsonb_agg(g) FROM (
      SELECT r."merchant_id", k.sort_by, r."status", r."currency", k.bucket, -count(*) AS delta
      FROM old_rows AS r, "sandbox"."invoice_sort_keys"(r."updated_at", r."fiat_amount", r."crypto_amount") AS k
      GROUP BY 1, 2, 3, 4, 5) AS g));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "invoice_sort_buckets_on_insert" AFTER INSERT ON "sandbox"."invoices"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_sort_buckets_apply"();
--> statement-breakpoint
CREATE TRIGGER "invoice_sort_buckets_on_update" AFTER UPDATE ON "sandbox"."invoices"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_sort_buckets_apply"();
--> statement-breakpoint
CREATE TRIGGER "invoice_sort_buckets_on_delete" AFTER DELETE ON "sandbox"."invoices"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_sort_buckets_apply"();
--> statement-breakpoint
-- The backfill, after the triggers: creating them locked out writers until this migration commits.
SELECT "sandbox"."invoice_sort_buckets_add"((SELECT jsonb_agg(g) FROM (
  SELECT r."merchant_id", k.sort_by, r."status", r."currency", k.bucket, count(*) AS delta
  FROM "sandbox"."invoices" AS r, "sandbox"."invoice_sort_keys"(r."updated_at", r."fiat_amount", r."crypto_amount") AS k
  GROUP BY 1, 2, 3, 4, 5) AS g));
