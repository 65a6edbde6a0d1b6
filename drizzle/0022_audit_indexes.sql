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
CREATE TABLE "console"."audit_texts" (
	"key" text PRIMARY KEY NOT NULL,
	"reason_lower" text,
	"comment_lower" text,
	"locator" bigint NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_counts_action_idx" ON "console"."audit_counts" USING btree ("action","day");--> statement-breakpoint
CREATE INDEX "audit_counts_actor_idx" ON "console"."audit_counts" USING btree ("actor_email","day");--> statement-breakpoint
CREATE INDEX "audit_log_text_idx" ON "console"."audit_log" USING btree (hashtextextended(coalesce("detail"->>'reason', '') || chr(10) || coalesce("detail"->>'comment', ''), 0));--> statement-breakpoint
-- Hand-written (the activity view at size, `npm run bench:audit`), not generated: the triggers that keep
-- console.audit_counts and console.audit_texts equal to the log in every transaction, and their backfill, in the
-- way of drizzle/0010. Entries are only added (drizzle/0021); retention's DELETE takes its counts off, and an UPDATE
-- or TRUNCATE, refused unless the refusing trigger is off, is followed all the same.
CREATE FUNCTION "console"."audit_texts_of"(detail jsonb) RETURNS TABLE ("key" text, "reason" text, "comment" text, "locator" bigint)
LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(detail->>'reason', detail->>'comment')::text, 'UTF8')), 'hex'),
    detail->>'reason', detail->>'comment',
    -- The expression of audit_log_text_idx (auditTextLocator in lib/console/schema.ts).
    hashtextextended(coalesce(detail->>'reason', '') || chr(10) || coalesce(detail->>'comment', ''), 0)
  WHERE detail->>'reason' IS NOT NULL OR detail->>'comment' IS NOT NULL
$$;
--> statement-breakpoint
CREATE FUNCTION "console"."audit_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "console"."audit_counts" AS c SET "n" = c."n" - o.n
    FROM (SELECT ("at" AT TIME ZONE 'UTC')::date AS day, "actor_email", "action", count(*) AS n FROM old_rows GROUP BY 1, 2, 3) AS o
    WHERE c."day" = o.day AND c."actor_email" = o."actor_email" AND c."action" = o."action";
    DELETE FROM "console"."audit_counts" AS c
    USING (SELECT DISTINCT ("at" AT TIME ZONE 'UTC')::date AS day, "actor_email", "action" FROM old_rows) AS o
    WHERE c."day" = o.day AND c."actor_email" = o."actor_email" AND c."action" = o."action" AND c."n" <= 0;
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
    SELECT ("at" AT TIME ZONE 'UTC')::date, "actor_email", "action", count(*), min("seq"), max("seq") FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT ("day", "actor_email", "action") DO UPDATE
    SET "n" = c."n" + excluded."n", "min_seq" = least(c."min_seq", excluded."min_seq"), "max_seq" = greatest(c."max_seq", excluded."max_seq");
    INSERT INTO "console"."audit_texts" AS t ("key", "reason_lower", "comment_lower", "locator", "n")
    SELECT x."key", lower(x."reason"), lower(x."comment"), x."locator", count(*)
    FROM new_rows, "console"."audit_texts_of"(new_rows."detail") AS x GROUP BY 1, 2, 3, 4
    ON CONFLICT ("key") DO UPDATE SET "n" = t."n" + excluded."n";
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
-- The backfill, after the triggers: creating them locked out writers until this migration commits.
INSERT INTO "console"."audit_counts" ("day", "actor_email", "action", "n", "min_seq", "max_seq")
SELECT ("at" AT TIME ZONE 'UTC')::date, "actor_email", "action", count(*), min("seq"), max("seq") FROM "console"."audit_log" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "console"."audit_texts" ("key", "reason_lower", "comment_lower", "locator", "n")
SELECT x."key", lower(x."reason"), lower(x."comment"), x."locator", count(*)
FROM "console"."audit_log" AS l, "console"."audit_texts_of"(l."detail") AS x GROUP BY 1, 2, 3, 4;
