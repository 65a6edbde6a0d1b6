import { z } from "zod";
import { type ArchivedInvoiceRequest, archivedInvoiceRequestSchema, readTypedAmount, type TypedAmount } from "@/lib/contract";
import { LosslessNumber } from "@/lib/contract/money-json";
import {
  AMOUNT_SIDES,
  type ArchiveFormValues,
  amountLabel,
  fieldMessage,
  REQUEST_FIELD_TO_FORM,
  readCreatedAt,
} from "./archive-form-values";

/*
 * What the archive form's values make: the POST /archived request, and the contract judged on it. Apart from
 * the values' plain rules, so the form is drawn without zod and this loads when the form is first judged.
 */

/** The allowed error, a whole percentage (not money): digits become a number, anything else goes as typed for the contract to refuse. */
const percent = (value: string): unknown => {
  const v = value.trim();
  if (v === "") return undefined;
  return /^\d+$/.test(v) ? Number(v) : value;
};

/**
 * The typed amount, read by the console's one reader of typed amounts (lib/contract/typed-amount.ts): digits
 * and at most one point, every digit kept; a comma, grouping, sign or currency is refused with why, never guessed.
 */
export function readAmount(values: Pick<ArchiveFormValues, "amount" | "amount_in" | "currency">): TypedAmount {
  return readTypedAmount(values.amount, amountLabel(values));
}

/**
 * The POST /archived body the values make: empty fields are left out, so the provider's defaults apply. A
 * date and time are the wall clock in `timeZone` (readCreatedAt).
 */
export function toArchiveRequest(values: ArchiveFormValues, timeZone: string): ArchivedInvoiceRequest {
  const text = (v: string) => (v.trim() === "" ? undefined : v.trim());
  const read = readAmount(values);
  // A JSON number with exactly the typed digits (stringifyJson writes it so); refused text goes as it is, so
  // the contract names this field, and the form shows the reader's own sentence instead.
  const amount = read.kind === "amount" ? new LosslessNumber(read.value) : read.kind === "empty" ? undefined : values.amount;
  const createdAt = readCreatedAt(values, timeZone).createdAt;
  return {
    order_id: values.order_id,
    order_name: text(values.order_name),
    currency: values.currency,
    ...(values.amount_in === "fiat" ? { fiat_amount: amount } : { crypto_amount: amount }),
    allowed_error_percent: percent(values.allowed_error_percent),
    callback_url: text(values.callback_url),
    created_at: createdAt,
  } as ArchivedInvoiceRequest;
}

/**
 * The form's schema: the contract, judged on the request the values make
 * (its time read in `timeZone`).
 */
export const archiveFormSchema = (timeZone: string) =>
  z
    .object({
      order_id: z.string(),
      order_name: z.string(),
      currency: z.string().min(1, { error: "Choose the currency the invoice was paid in" }),
      amount_in: z.enum(AMOUNT_SIDES),
      amount: z.string().trim().min(1, { error: "Enter the amount" }),
      allowed_error_percent: z.string(),
      callback_url: z.string(),
      date: z.string(),
      time: z.string(),
    })
    .check((ctx) => {
      const { problem } = readCreatedAt(ctx.value, timeZone);
      if (problem) ctx.issues.push({ code: "custom", input: ctx.value[problem.field], path: [problem.field], message: problem.message });
      const amount = readAmount(ctx.value);
      if (amount.kind === "refused")
        ctx.issues.push({ code: "custom", input: ctx.value.amount, path: ["amount"], message: amount.message });
      const parsed = archivedInvoiceRequestSchema.safeParse(toArchiveRequest(ctx.value, timeZone));
      if (parsed.success) return;
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = REQUEST_FIELD_TO_FORM[String(issue.path[0])];
        // Both or neither amount cannot happen in the form (one box); its own "Enter the amount" says it.
        if (
          !field ||
          seen.has(field) ||
          (field === "date" && problem) ||
          (field === "amount" && amount.kind !== "amount") ||
          (field === "currency" && ctx.value.currency === "")
        )
          continue;
        seen.add(field);
        ctx.issues.push({ code: "custom", input: ctx.value[field], path: [field], message: fieldMessage(field, issue.message) });
      }
    });
