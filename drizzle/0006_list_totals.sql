CREATE TABLE "sandbox"."invoice_counts" (
	"merchant_id" uuid NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "invoice_counts_merchant_id_status_currency_day_pk" PRIMARY KEY("merchant_id","status","currency","day")
);
--> statement-breakpoint
DROP INDEX "sandbox"."invoices_created_at_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_status_created_at_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_currency_created_at_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_updated_at_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_status_updated_at_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_currency_updated_at_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_fiat_amount_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_status_fiat_amount_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_currency_fiat_amount_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_crypto_amount_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_status_crypto_amount_idx";--> statement-breakpoint
DROP INDEX "sandbox"."invoices_currency_crypto_amount_idx";--> statement-breakpoint
ALTER TABLE "sandbox"."invoice_counts" ADD CONSTRAINT "invoice_counts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "sandbox"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_counts_day_idx" ON "sandbox"."invoice_counts" USING btree ("merchant_id","day");--> statement-breakpoint
CREATE INDEX "invoices_created_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","created_at","id","status","currency");--> statement-breakpoint
CREATE INDEX "invoices_status_created_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","created_at","id","currency");--> statement-breakpoint
CREATE INDEX "invoices_currency_created_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","created_at","id","status");--> statement-breakpoint
CREATE INDEX "invoices_updated_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","updated_at","id","status","currency","created_at");--> statement-breakpoint
CREATE INDEX "invoices_status_updated_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","updated_at","id","currency","created_at");--> statement-breakpoint
CREATE INDEX "invoices_currency_updated_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","updated_at","id","status","created_at");--> statement-breakpoint
CREATE INDEX "invoices_fiat_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","fiat_amount","id","status","currency","created_at");--> statement-breakpoint
CREATE INDEX "invoices_status_fiat_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","fiat_amount","id","currency","created_at");--> statement-breakpoint
CREATE INDEX "invoices_currency_fiat_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","fiat_amount","id","status","created_at");--> statement-breakpoint
CREATE INDEX "invoices_crypto_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","crypto_amount","id","status","currency","created_at");--> statement-breakpoint
CREATE INDEX "invoices_status_crypto_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","crypto_amount","id","currency","created_at");--> statement-breakpoint
CREATE INDEX "invoices_currency_crypto_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","crypto_amount","id","status","created_at");--> statement-breakpoint
-- Hand-written (issue 13), not generated: the triggers that keep sandbox.invoice_counts equal to the invoices
-- in every transaction, and its backfill. Each key (merchant, status, currency) has a row per UTC day of
-- created_at and one row with day = 'infinity' holding its all-time total, so that a total without a created
-- range is a sum over a few dozen rows. Statement triggers with transition tables: a bulk insert (the seed)
-- adds one aggregate per key and day, not one upsert per row. The rows are upserted in key order, so that
-- concurrent writers lock the shared counter rows in one order (no deadlock between them).
CREATE FUNCTION "sandbox"."invoice_counts_add"(changes jsonb) RETURNS void LANGUAGE sql AS $$
  WITH per_day AS (
    SELECT (c->>'merchant_id')::uuid AS merchant_id, c->>'status' AS status, c->>'currency' AS currency,
           (c->>'day')::date AS day, (c->>'delta')::bigint AS delta
    FROM jsonb_array_elements(changes) AS c
  ),
  keyed AS (
    SELECT merchant_id, status, currency, day, delta FROM per_day
    UNION ALL
    SELECT merchant_id, status, currency, 'infinity'::date, delta FROM per_day
  )
  INSERT INTO "sandbox"."invoice_counts" AS t ("merchant_id", "status", "currency", "day", "count")
  SELECT merchant_id, status, currency, day, sum(delta) FROM keyed
  GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("merchant_id", "status", "currency", "day") DO UPDATE SET "count" = t."count" + excluded."count"
$$;
--> statement-breakpoint
CREATE FUNCTION "sandbox"."invoice_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "sandbox"."invoice_counts_add"((SELECT jsonb_agg(g) FROM (
      SELECT "merchant_id", "status", "currency", ("created_at" AT TIME ZONE 'UTC')::date AS day, count(*) AS delta
      FROM new_rows GROUP BY 1, 2, 3, 4) AS g));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "sandbox"."invoice_counts_add"((SELECT jsonb_agg(g) FROM (
      SELECT "merchant_id", "status", "currency", day, sum(delta) AS delta FROM (
        SELECT "merchant_id", "status", "currency", ("created_at" AT TIME ZONE 'UTC')::date AS day, 1 AS delta FROM new_rows
        UNION ALL
        SELECT "merchant_id", "status", "currency", ("created_at" AT TIME ZONE 'UTC')::date, -1 FROM old_rows
      ) AS moves GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0) AS g));
  ELSE
    PERFORM "sandbox"."invoice_counts_add"((SELECT jsonb_agg(g) FROM (
      SELECT "merchant_id", "status", "currency", ("created_at" AT TIME ZONE 'UTC')::date AS day, -count(*) AS delta
      FROM old_rows GROUP BY 1, 2, 3, 4) AS g));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "invoice_counts_on_insert" AFTER INSERT ON "sandbox"."invoices"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "invoice_counts_on_update" AFTER UPDATE ON "sandbox"."invoices"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "invoice_counts_on_delete" AFTER DELETE ON "sandbox"."invoices"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."invoice_counts_apply"();
--> statement-breakpoint
-- The backfill, after the triggers: creating them locked out writers until this migration commits.
SELECT "sandbox"."invoice_counts_add"((SELECT jsonb_agg(g) FROM (
  SELECT "merchant_id", "status", "currency", ("created_at" AT TIME ZONE 'UTC')::date AS day, count(*) AS delta
  FROM "sandbox"."invoices" GROUP BY 1, 2, 3, 4) AS g));
