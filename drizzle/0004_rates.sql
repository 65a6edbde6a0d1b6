CREATE TABLE "sandbox"."rate_limit_counters" (
	"key_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_counters_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
--> statement-breakpoint
CREATE TABLE "console"."rates_cache" (
	"id" text PRIMARY KEY NOT NULL,
	"rates" jsonb,
	"previous_rates" jsonb,
	"fetched_at" timestamp with time zone,
	"previous_fetched_at" timestamp with time zone,
	"next_try_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stale_reason" text,
	"stale_detail" text,
	"lease_until" timestamp with time zone,
	"lease_holder" text,
	"upstream_calls" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."rate_limit_counters" ADD CONSTRAINT "rate_limit_counters_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "sandbox"."api_keys"("id") ON DELETE cascade ON UPDATE no action;