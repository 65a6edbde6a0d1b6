-- The audit log becomes a hash chain (lib/console/activity/chain.ts): each entry numbered and hashed by the
-- database, under one lock, so instances sharing it keep one chain; entries are only ever added.
CREATE TABLE "console"."audit_checkpoints" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"removed" bigint DEFAULT 0 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "console"."audit_log_target_idx";--> statement-breakpoint
ALTER TABLE "console"."audit_log" ADD COLUMN "seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."audit_log" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."audit_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- An entry's hash: SHA-256 of the previous entry's hash and this entry's content, as one JSON array (jsonb's
-- text form is canonical: keys sorted, one spacing). Writing and verifying both call this, so they cannot differ.
CREATE FUNCTION "console"."audit_entry_hash"(prev text, seq bigint, at timestamptz, actor_id text, actor_email text, action text, target text, detail jsonb)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    prev, seq, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), actor_id, actor_email, action, target, detail
  )::text, 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- The chain's start, recorded: the entries that exist now are carried into it in the order they were written.
INSERT INTO "console"."audit_checkpoints" ("seq", "hash", "removed") VALUES (0, repeat('0', 64), 0);--> statement-breakpoint
UPDATE "console"."audit_log" l SET "seq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "at", "id") AS n FROM "console"."audit_log") o
WHERE l."id" = o."id";--> statement-breakpoint
DO $$
DECLARE
  r record;
  prev text := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM "console"."audit_log" ORDER BY "seq" LOOP
    UPDATE "console"."audit_log"
    SET "prev_hash" = prev,
        "hash" = "console"."audit_entry_hash"(prev, r."seq", r."at", r."actor_id", r."actor_email", r."action", r."target", r."detail")
    WHERE "id" = r."id"
    RETURNING "hash" INTO prev;
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_seq_idx" ON "console"."audit_log" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "console"."audit_log" USING btree ("actor_email","seq");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "console"."audit_log" USING btree ("action","seq");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "console"."audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "console"."audit_log" USING btree ("target","seq");--> statement-breakpoint
-- Every new entry: the next number and the hash after the last entry (or the last checkpoint, once retention has
-- removed everything before). The lock is the transaction's: the next writer waits until this entry is committed.
CREATE FUNCTION "console"."audit_log_chain"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last record;
BEGIN
  PERFORM pg_advisory_xact_lock(7410001);
  SELECT l."seq", l."hash" INTO last FROM "console"."audit_log" l ORDER BY l."seq" DESC LIMIT 1;
  IF NOT FOUND THEN
    SELECT c."seq", c."hash" INTO last FROM "console"."audit_checkpoints" c ORDER BY c."seq" DESC LIMIT 1;
  END IF;
  NEW."seq" := last."seq" + 1;
  NEW."prev_hash" := last."hash";
  NEW."hash" := "console"."audit_entry_hash"(NEW."prev_hash", NEW."seq", NEW."at", NEW."actor_id", NEW."actor_email", NEW."action", NEW."target", NEW."detail");
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_log_chain" BEFORE INSERT ON "console"."audit_log" FOR EACH ROW EXECUTE FUNCTION "console"."audit_log_chain"();--> statement-breakpoint
-- History is not rewritten: UPDATE, DELETE and TRUNCATE are refused, except the retention function's DELETE.
CREATE FUNCTION "console"."audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('console.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'console.audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "console"."audit_log" FOR EACH ROW EXECUTE FUNCTION "console"."audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "console"."audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_log_append_only"();--> statement-breakpoint
-- Retention (AUDIT_RETENTION_DAYS): removes the oldest entries written before `cutoff`, always a prefix of the
-- chain, and records the last removed entry's number and hash as a checkpoint the first kept entry verifies from.
CREATE FUNCTION "console"."audit_prune"(cutoff timestamptz) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  upto bigint;
  upto_hash text;
  n bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(7410001);
  SELECT coalesce((SELECT min("seq") FROM "console"."audit_log" WHERE "at" >= cutoff) - 1, (SELECT max("seq") FROM "console"."audit_log"))
  INTO upto;
  SELECT "hash" INTO upto_hash FROM "console"."audit_log" WHERE "seq" = upto;
  IF upto_hash IS NULL THEN
    RETURN 0;
  END IF;
  PERFORM set_config('console.audit_retention', 'on', true);
  DELETE FROM "console"."audit_log" WHERE "seq" <= upto;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('console.audit_retention', 'off', true);
  INSERT INTO "console"."audit_checkpoints" ("seq", "hash", "removed") VALUES (upto, upto_hash, n);
  RETURN n;
END $$;
--> statement-breakpoint
-- The chain's start, as an entry of its own: how many entries were carried into it.
INSERT INTO "console"."audit_log" ("actor_email", "action", "target", "detail")
SELECT 'system', 'audit.chain_started', 'audit:chain', jsonb_build_object('carried', count(*)) FROM "console"."audit_log";
