ALTER TABLE "console"."search_sync" ADD COLUMN "fill_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "console"."search_sync" ADD COLUMN "fill_read" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A fill under way when this runs goes on from its page (fill_after null is the whole list, as before).
UPDATE "console"."search_sync" SET "fill_read" = greatest(0, ("fill_page" - 1) * 100) WHERE "fill_page" IS NOT NULL;
