-- A redelivery (POST /webhook-deliveries/{id}/redeliver) is an attempt outside the retry schedule: marked, and
-- left out of the scheduled attempts' numbering, so a resend never takes the number the next scheduled attempt records.
ALTER TABLE "sandbox"."webhook_attempts" ADD COLUMN "redelivery" boolean DEFAULT false NOT NULL;--> statement-breakpoint
DROP INDEX "sandbox"."webhook_attempts_delivery_attempt_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_attempts_delivery_attempt_uq" ON "sandbox"."webhook_attempts" USING btree ("delivery_id","attempt") WHERE not redelivery;--> statement-breakpoint
-- GET /webhook-deliveries: a merchant's deliveries, newest first.
CREATE INDEX "webhook_deliveries_merchant_created_idx" ON "sandbox"."webhook_deliveries" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
