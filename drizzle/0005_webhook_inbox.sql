CREATE TABLE "console"."webhook_inbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "console"."webhook_inbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verdict" text NOT NULL,
	"reason" text NOT NULL,
	"message_id" text,
	"invoice_id" text,
	"event_type" text,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"body_bytes" integer NOT NULL,
	"truncated" boolean DEFAULT false NOT NULL,
	"remote_address" text
);
--> statement-breakpoint
CREATE TABLE "console"."webhook_inbox_ids" (
	"message_id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_attempts" ADD COLUMN "response_body" text;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_inbox_seq_uq" ON "console"."webhook_inbox" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "webhook_inbox_invoice_idx" ON "console"."webhook_inbox" USING btree ("invoice_id","seq");--> statement-breakpoint
-- Issue 12: the demo merchant's seeded invoices send their webhooks to the console's own inbox. The address
-- depends on where the console runs (PUBLIC_URL or the port), so a marker is stored and resolved when the
-- invoice is read or its webhook queued (lib/sandbox/callback-url.ts); databases seeded before keep working.
UPDATE "sandbox"."invoices" SET "callback_url" = 'urn:invoice-console:webhook-inbox'
WHERE "merchant_id" = '0190a1d2-0000-7000-8000-000000000001' AND "callback_url" = 'https://shop.example.com/api/payments/webhook';
