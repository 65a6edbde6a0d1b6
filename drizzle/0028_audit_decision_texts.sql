-- Hand-written. The activity filter's second text is a decision's reason (an approval's or a rejection's, written as
-- detail.decision_reason), so a rejection is found by the words of its reason. It was "comment", which nothing writes.
-- The locator, the distinct texts and their grams are made again from the log; the triggers of drizzle/0022 keep
-- them as before.
DROP STATISTICS IF EXISTS "console"."audit_log_comment_stats";--> statement-breakpoint
-- Dropping the generated column drops the four indexes that carry it; they are made again below.
ALTER TABLE "console"."audit_log" DROP COLUMN "text_locator";--> statement-breakpoint
ALTER TABLE "console"."audit_log" ADD COLUMN "text_locator" bigint GENERATED ALWAYS AS (case when "detail"->>'reason' is null and "detail"->>'decision_reason' is null then null else hashtextextended(coalesce(length("detail"->>'reason')::text || ':' || ("detail"->>'reason'), '-') || coalesce(length("detail"->>'decision_reason')::text || ':' || ("detail"->>'decision_reason'), '-'), 0) end) STORED;--> statement-breakpoint
CREATE INDEX "audit_log_text_idx" ON "console"."audit_log" USING btree ("text_locator","seq");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "console"."audit_log" USING btree ("actor_email","seq","at","text_locator");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "console"."audit_log" USING btree ("action","seq","at","text_locator");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "console"."audit_log" USING btree ("at","seq","text_locator");--> statement-breakpoint
DROP INDEX "console"."audit_texts_grams_idx";--> statement-breakpoint
ALTER TABLE "console"."audit_texts" RENAME COLUMN "comment_lower" TO "decision_reason_lower";--> statement-breakpoint
CREATE INDEX "audit_texts_grams_idx" ON "console"."audit_texts" USING gin ((console.audit_text_grams("reason_lower") || console.audit_text_grams("decision_reason_lower")));--> statement-breakpoint
DROP FUNCTION "console"."audit_texts_of"(jsonb);--> statement-breakpoint
CREATE FUNCTION "console"."audit_texts_of"(detail jsonb) RETURNS TABLE ("key" text, "reason" text, "decision_reason" text)
LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(detail->>'reason', detail->>'decision_reason')::text, 'UTF8')), 'hex'),
    detail->>'reason', detail->>'decision_reason'
  WHERE detail->>'reason' IS NOT NULL OR detail->>'decision_reason' IS NOT NULL
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "console"."audit_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO "console"."audit_texts" AS t ("key", "reason_lower", "decision_reason_lower", "locator", "n")
    SELECT x."key", lower(x."reason"), lower(x."decision_reason"), new_rows."text_locator", count(*)
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
-- The texts and their collisions, made again from the log under the new pairs (the locators are new numbers).
DELETE FROM "console"."audit_texts";--> statement-breakpoint
DELETE FROM "console"."audit_text_collisions";--> statement-breakpoint
INSERT INTO "console"."audit_texts" ("key", "reason_lower", "decision_reason_lower", "locator", "n")
SELECT x."key", lower(x."reason"), lower(x."decision_reason"), l."text_locator", count(*)
FROM "console"."audit_log" AS l, "console"."audit_texts_of"(l."detail") AS x GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "console"."audit_text_collisions" ("locator")
SELECT "locator" FROM "console"."audit_texts" GROUP BY "locator" HAVING count(*) > 1;
--> statement-breakpoint
CREATE STATISTICS "console"."audit_log_decision_reason_stats" ON ("detail"->>'decision_reason') FROM "console"."audit_log";
