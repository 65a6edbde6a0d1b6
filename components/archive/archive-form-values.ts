import { z } from "zod";
import { ALLOWED_ERROR_PERCENT_DEFAULT, archivedInvoiceRequestSchema, type ArchivedInvoiceRequest } from "@/lib/invoicing";
import { wallTimeOffset } from "@/lib/time-zone";

/*
 * The archive form's values are what the person typed (strings); the contract (lib/invoicing) judges the
 * request they make. The form's schema runs the contract on that request and puts each broken rule back on
 * the field it came from, so the form and the API can never disagree about a rule.
 */

export const AMOUNT_SIDES = ["fiat", "crypto"] as const;
export type AmountSide = (typeof AMOUNT_SIDES)[number];

export type ArchiveFormValues = {
  order_id: string;
  order_name: string;
  currency: string;
  amount_in: AmountSide;
  amount: string;
  allowed_error_percent: string;
  callback_url: string;
  /** `YYYY-MM-DD` from a date input, or empty for now. */
  date: string;
  /** `HH:mm` in the person's display time zone (lib/time-zone.ts), or empty for the date alone. */
  time: string;
};

export const EMPTY_ARCHIVE_FORM: ArchiveFormValues = {
  order_id: "",
  order_name: "",
  currency: "",
  amount_in: "fiat",
  amount: "",
  allowed_error_percent: String(ALLOWED_ERROR_PERCENT_DEFAULT),
  callback_url: "",
  date: "",
  time: "",
};

export type FormField = keyof ArchiveFormValues;

/** Where a request field's problems are shown in the form. */
export const REQUEST_FIELD_TO_FORM: Record<string, FormField> = {
  order_id: "order_id",
  order_name: "order_name",
  currency: "currency",
  fiat_amount: "amount",
  crypto_amount: "amount",
  fiat_currency: "amount",
  allowed_error_percent: "allowed_error_percent",
  callback_url: "callback_url",
  created_at: "date",
};

const FIELD_LABELS: Record<FormField, string> = {
  order_id: "Order id",
  order_name: "Order name",
  currency: "Currency",
  amount_in: "Amount in",
  amount: "Amount",
  allowed_error_percent: "Allowed error",
  callback_url: "Callback URL",
  date: "Created on",
  time: "Time",
};

/**
 * A rule's message as a sentence for the form: the contract's "must be 0 or more" reads "Amount must be 0 or
 * more"; a provider's own sentence ("Order SO-1 has already been recorded") is shown as it came.
 */
export function fieldMessage(field: FormField, message: string): string {
  const m = message.trim();
  return /^[a-z]/.test(m) ? `${FIELD_LABELS[field]} ${m}` : m;
}

const number = (value: string): unknown => {
  const v = value.trim().replace(",", ".");
  if (v === "") return undefined;
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(v) ? Number(v) : value;
};

/**
 * The POST /archived body the values make: empty fields are left out, so the provider's defaults apply. A
 * date and time are the wall clock in `timeZone`, the zone the form names (the person's display zone).
 */
export function toArchiveRequest(values: ArchiveFormValues, timeZone: string): ArchivedInvoiceRequest {
  const text = (v: string) => (v.trim() === "" ? undefined : v.trim());
  const amount = number(values.amount);
  const createdAt = values.date ? (values.time ? `${values.date}T${values.time}:00${wallTimeOffset(values.date, values.time, timeZone)}` : values.date) : undefined;
  return {
    order_id: values.order_id,
    order_name: text(values.order_name),
    currency: values.currency,
    ...(values.amount_in === "fiat" ? { fiat_amount: amount } : { crypto_amount: amount }),
    allowed_error_percent: number(values.allowed_error_percent),
    callback_url: text(values.callback_url),
    created_at: createdAt,
  } as ArchivedInvoiceRequest;
}

/**
 * The form's schema for react-hook-form's zod resolver: the contract, judged on the request the values make
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
    const parsed = archivedInvoiceRequestSchema.safeParse(toArchiveRequest(ctx.value, timeZone));
    if (parsed.success) return;
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = REQUEST_FIELD_TO_FORM[String(issue.path[0])];
      // Both or neither amount cannot happen in the form (one box); its own "Enter the amount" says it.
      if (!field || seen.has(field) || (field === "amount" && ctx.value.amount.trim() === "") || (field === "currency" && ctx.value.currency === "")) continue;
      seen.add(field);
      ctx.issues.push({ code: "custom", input: ctx.value[field], path: [field], message: fieldMessage(field, issue.message) });
    }
  });
