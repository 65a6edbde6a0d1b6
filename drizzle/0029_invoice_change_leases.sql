-- One status change of an invoice at a time, across instances (lib/console/invoices/change-lease.ts).
CREATE TABLE "console"."invoice_change_leases" (
	"invoice_key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
