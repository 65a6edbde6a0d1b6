-- The invoice id is found, whole or by its tail, through the reversed-id index alone (a whole id is a tail of
-- itself): the second index on lower(invoice_id) cost every mirror write without serving anything the first does not.
DROP INDEX IF EXISTS "console"."search_invoices_invoice_id_idx";
