-- Deliveries to the console's own inbox keep its marker, resolved when listed or sent, so that one made before a
-- start on another port or PUBLIC_URL is still resent to the inbox (lib/sandbox/callback-url.ts). Those made
-- before this kept the address of their moment.
UPDATE "sandbox"."webhook_deliveries" AS "d" SET "url" = 'urn:invoice-console:webhook-inbox'
FROM "sandbox"."invoices" AS "i"
WHERE "i"."id" = "d"."invoice_id" AND "i"."callback_url" = 'urn:invoice-console:webhook-inbox' AND "d"."url" LIKE '%/api/webhook-inbox';
