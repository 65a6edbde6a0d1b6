// The archive form's values and their reading live in lib/contract, so the server action that records a form
// posted without script (lib/console/invoices/actions.ts) reads them exactly as the form does.
export * from "@/lib/contract/archive-form-values";
