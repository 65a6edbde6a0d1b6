-- The activity view at size (`npm run bench:audit`): exact counts from rollups kept by triggers, the entries' texts
-- as a number to find them by, and the log's indexes widened so that a mix of filters is counted from one index.
-- Hand-written, before what drizzle-kit generated: the function the GIN index below is on (auditTextGrams in
-- lib/console/schema.ts): the distinct runs of three characters in a text, every one of which a text holding it holds.
CREATE FUNCTION "console"."audit_text_grams"(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(t, i, 3)), '{}') FROM generate_series(1, length(t) - 2) AS i
$$;
--> statement-breakpoint
CREATE TABLE "console"."audit_counts" (
	"day" date NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"n" bigint NOT NULL,
	"min_seq" bigint NOT NULL,
	"max_seq" bigint NOT NULL,
	CONSTRAINT "audit_counts_day_actor_email_action_pk" PRIMARY KEY("day","actor_email","action")
);
--> statement-breakpoint
CREATE TABLE "console"."audit_text_collisions" (
	"locator" bigint PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."audit_texts" (
	"key" text PRIMARY KEY NOT NULL,
	"reason_lower" text,
	"comment_lower" text,
	"locator" bigint NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "console"."audit_log_actor_idx";--> statement-breakpoint
DROP INDEX "console"."audit_log_action_idx";--> statement-breakpoint
DROP INDEX "console"."audit_log_at_idx";--> statement-breakpoint
ALTER TABLE "console"."audit_log" ADD COLUMN "text_locator" bigint GENERATED ALWAYS AS (case when "detail"->>'reason' is null and "detail"->>'comment' is null then null else hashtextextended(coalesce(length("detail"->>'reason')::text || ':' || ("detail"->>'reason'), '-') || coalesce(length("detail"->>'comment')::text || ':' || ("detail"->>'comment'), '-'), 0) end) STORED;--> statement-breakpoint
CREATE INDEX "audit_counts_action_idx" ON "console"."audit_counts" USING btree ("action","day");--> statement-breakpoint
CREATE INDEX "audit_counts_actor_idx" ON "console"."audit_counts" USING btree ("actor_email","day");--> statement-breakpoint
CREATE INDEX "audit_texts_locator_idx" ON "console"."audit_texts" USING btree ("locator");--> statement-breakpoint
CREATE INDEX "audit_texts_grams_idx" ON "console"."audit_texts" USING gin ((console.audit_text_grams("reason_lower") || console.audit_text_grams("comment_lower")));--> statement-breakpoint
CREATE INDEX "audit_log_text_idx" ON "console"."audit_log" USING btree ("text_locator","seq");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "console"."audit_log" USING btree ("actor_email","seq","at","text_locator");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "console"."audit_log" USING btree ("action","seq","at","text_locator");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "console"."audit_log" USING btree ("at","seq","text_locator");
--> statement-breakpoint
-- Hand-written, not generated: the triggers that keep console.audit_counts and console.audit_texts equal to the log
-- in every transaction, and their backfill, in the way of drizzle/0010. Entries are only added (drizzle/0021);
-- retention's DELETE takes its counts off; an UPDATE or TRUNCATE, refused unless the refusing trigger is off, is
-- followed all the same.
CREATE FUNCTION "console"."audit_texts_of"(detail jsonb) RETURNS TABLE ("key" text, "reason" text, "comment" text)
LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(detail->>'reason', detail->>'comment')::text, 'UTF8')), 'hex'),
    detail->>'reason', detail->>'comment'
  WHERE detail->>'reason' IS NOT NULL OR detail->>'comment' IS NOT NULL
$$;
--> statement-breakpoint
-- The rollup's days an entry counts in: its UTC day, and 'infinity', the all-time row (as sandbox.invoice_counts).
CREATE FUNCTION "console"."audit_count_days"(at timestamptz) RETURNS TABLE ("day" date) LANGUAGE sql IMMUTABLE AS $$
  VALUES ((at AT TIME ZONE 'UTC')::date), ('infinity'::date)
$$;
--> statement-breakpoint
CREATE FUNCTION "console"."audit_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "console"."audit_counts" AS c SET "n" = c."n" - o.n
    FROM (SELECT d."day", r."actor_email", r."action", count(*) AS n
      FROM old_rows AS r, "console"."audit_count_days"(r."at") AS d GROUP BY 1, 2, 3) AS o
    WHERE c."day" = o."day" AND c."actor_email" = o."actor_email" AND c."action" = o."action";
    DELETE FROM "console"."audit_counts" AS c
    USING (SELECT DISTINCT d."day", r."actor_email", r."action" FROM old_rows AS r, "console"."audit_count_days"(r."at") AS d) AS o
    WHERE c."day" = o."day" AND c."actor_email" = o."actor_email" AND c."action" = o."action" AND c."n" <= 0;
    UPDATE "console"."audit_texts" AS t SET "n" = t."n" - o.n
    FROM (SELECT x."key", count(*) AS n FROM old_rows, "console"."audit_texts_of"(old_rows."detail") AS x GROUP BY 1) AS o
    WHERE t."key" = o."key";
    DELETE FROM "console"."audit_texts" AS t
    USING (SELECT DISTINCT x."key" FROM old_rows, "console"."audit_texts_of"(old_rows."detail") AS x) AS o
    WHERE t."key" = o."key" AND t."n" <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    -- min_seq and max_seq only widen: bounds of the day's numbers, whatever retention removed since.
    INSERT INTO "console"."audit_counts" AS c ("day", "actor_email", "action", "n", "min_seq", "max_seq")
    SELECT d."day", r."actor_email", r."action", count(*), min(r."seq"), max(r."seq")
    FROM new_rows AS r, "console"."audit_count_days"(r."at") AS d GROUP BY 1, 2, 3
    ON CONFLICT ("day", "actor_email", "action") DO UPDATE
    SET "n" = c."n" + excluded."n", "min_seq" = least(c."min_seq", excluded."min_seq"), "max_seq" = greatest(c."max_seq", excluded."max_seq");
    -- The locator is the entry's own generated column: the same number by construction.
    INSERT INTO "console"."audit_texts" AS t ("key", "reason_lower", "comment_lower", "locator", "n")
    SELECT x."key", lower(x."reason"), lower(x."comment"), new_rows."text_locator", count(*)
    FROM new_rows, "console"."audit_texts_of"(new_rows."detail") AS x GROUP BY 1, 2, 3, 4
    ON CONFLICT ("key") DO UPDATE SET "n" = t."n" + excluded."n";
    -- Two distinct pairs with one locator: recorded, and from then on the view reads the entries to tell them apart.
    INSERT INTO "console"."audit_text_collisions" ("locator")
    SELECT t."locator" FROM "console"."audit_texts" AS t
    WHERE t."locator" IN (SELECT "text_locator" FROM new_rows WHERE "text_locator" IS NOT NULL)
    GROUP BY t."locator" HAVING count(*) > 1
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "console"."audit_rollups_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "console"."audit_counts";
  DELETE FROM "console"."audit_texts";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "audit_rollups_on_insert" AFTER INSERT ON "console"."audit_log"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "audit_rollups_on_update" AFTER UPDATE ON "console"."audit_log"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "audit_rollups_on_delete" AFTER DELETE ON "console"."audit_log"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "audit_rollups_on_truncate" AFTER TRUNCATE ON "console"."audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_rollups_clear"();
--> statement-breakpoint
-- What the text filter reads (ILIKE on the reason and the comment), for the planner: without these statistics it
-- takes any word for a rare one and reads every entry, where walking the newest fills the page at once.
CREATE STATISTICS "console"."audit_log_reason_stats" ON ("detail"->>'reason') FROM "console"."audit_log";
--> statement-breakpoint
CREATE STATISTICS "console"."audit_log_comment_stats" ON ("detail"->>'comment') FROM "console"."audit_log";
--> statement-breakpoint
-- The backfill, after the triggers: creating them locked out writers until this migration commits.
INSERT INTO "console"."audit_counts" ("day", "actor_email", "action", "n", "min_seq", "max_seq")
SELECT d."day", l."actor_email", l."action", count(*), min(l."seq"), max(l."seq")
FROM "console"."audit_log" AS l, "console"."audit_count_days"(l."at") AS d GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "console"."audit_texts" ("key", "reason_lower", "comment_lower", "locator", "n")
SELECT x."key", lower(x."reason"), lower(x."comment"), l."text_locator", count(*)
FROM "console"."audit_log" AS l, "console"."audit_texts_of"(l."detail") AS x GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "console"."audit_text_collisions" ("locator")
SELECT "locator" FROM "console"."audit_texts" GROUP BY "locator" HAVING count(*) > 1;
