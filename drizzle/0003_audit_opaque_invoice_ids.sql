-- The console used to key an invoice's audit trail by a UUID it cut out of the id, and always asked the
-- provider for `invoice_<uuid>`. Ids are opaque now and trails are keyed by the provider's id as it is, so
-- earlier entries move to the id they were made under: every provider the console worked with then used it.
UPDATE "console"."audit_log"
SET "target" = 'invoice:invoice_' || substring("target" from 9)
WHERE "target" ~ '^invoice:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
