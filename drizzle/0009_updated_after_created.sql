-- Hand-written line (issue 13): an archived invoice dated within the allowed clock skew ahead could have been
-- stored with updated_at a little before its created_at; such rows take their created_at, so the check holds.
UPDATE "sandbox"."invoices" SET "updated_at" = "created_at" WHERE "updated_at" < "created_at";--> statement-breakpoint
ALTER TABLE "sandbox"."invoices" ADD CONSTRAINT "invoices_updated_at_not_before_created_at" CHECK ("sandbox"."invoices"."updated_at" >= "sandbox"."invoices"."created_at");
