CREATE TABLE "console"."approval_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"invoice_id" text,
	"bulk_job_id" uuid,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text NOT NULL,
	"why" text NOT NULL,
	"snapshot" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"requested_by" text NOT NULL,
	"requested_by_email" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"claim_until" timestamp with time zone,
	"decided_by" text,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "console"."bulk_jobs" ADD COLUMN "awaiting_approval" uuid;--> statement-breakpoint
CREATE INDEX "approval_requests_state_idx" ON "console"."approval_requests" USING btree ("state","requested_at");--> statement-breakpoint
CREATE INDEX "approval_requests_invoice_idx" ON "console"."approval_requests" USING btree ("invoice_id","state");