CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TABLE "sandbox"."api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"order_name" text,
	"status" text NOT NULL,
	"fiat_amount" numeric(18, 2) NOT NULL,
	"fiat_currency" text DEFAULT 'EUR' NOT NULL,
	"crypto_amount" numeric(38, 18) NOT NULL,
	"currency" text NOT NULL,
	"allowed_error_percent" integer NOT NULL,
	"callback_url" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"payment_address" text,
	"amount_received" numeric(38, 18),
	"rate" numeric(24, 8),
	"paid_at" timestamp with time zone,
	"confirmations" integer,
	"confirmations_required" integer
);
--> statement-breakpoint
CREATE TABLE "sandbox"."merchants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"webhook_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"tx_hash" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"confirmations" integer NOT NULL,
	"block_height" integer,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."api_keys" ADD CONSTRAINT "api_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "sandbox"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."invoices" ADD CONSTRAINT "invoices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "sandbox"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD CONSTRAINT "transactions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "sandbox"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_merchant_order_uq" ON "sandbox"."invoices" USING btree ("merchant_id","order_id");--> statement-breakpoint
CREATE INDEX "invoices_created_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_status_created_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_currency_created_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_updated_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "invoices_status_updated_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "invoices_currency_updated_at_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","updated_at","id");--> statement-breakpoint
CREATE INDEX "invoices_fiat_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","fiat_amount","id");--> statement-breakpoint
CREATE INDEX "invoices_status_fiat_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","fiat_amount","id");--> statement-breakpoint
CREATE INDEX "invoices_currency_fiat_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","fiat_amount","id");--> statement-breakpoint
CREATE INDEX "invoices_crypto_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","crypto_amount","id");--> statement-breakpoint
CREATE INDEX "invoices_status_crypto_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","status","crypto_amount","id");--> statement-breakpoint
CREATE INDEX "invoices_currency_crypto_amount_idx" ON "sandbox"."invoices" USING btree ("merchant_id","currency","crypto_amount","id");--> statement-breakpoint
CREATE INDEX "transactions_invoice_idx" ON "sandbox"."transactions" USING btree ("invoice_id","seen_at");