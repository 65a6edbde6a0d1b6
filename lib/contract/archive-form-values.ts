import { z } from "zod";
import {
  ALLOWED_ERROR_PERCENT_DEFAULT,
  type ArchivedInvoiceRequest,
  archivedInvoiceRequestSchema,
  readTypedAmount,
  type TypedAmount,
} from "@/lib/contract";
import { LosslessNumber } from "@/lib/contract/money-json";
import { readWallTime, startOfDay, type WallTimeReading } from "@/lib/contract/time-zone";

/*
 * The archive form's values are what the person typed (strings); the contract (lib/contract) judges the
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
  /** `HH:mm` in the person's time zone (lib/contract/time-zone.ts), or empty for the start of the day there. */
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

/** The allowed error, a whole percentage (not money): digits become a number, anything else goes as typed for the contract to refuse. */
const percent = (value: string): unknown => {
  const v = value.trim();
  if (v === "") return undefined;
  return /^\d+$/.test(v) ? Number(v) : value;
};

/** The amount box's name, as its label reads and as every message about it starts. */
export function amountLabel(values: Pick<ArchiveFormValues, "amount_in" | "currency">): string {
  return values.amount_in === "fiat" ? "Amount in EUR" : `Amount in ${values.currency || "crypto"}`;
}

/**
 * The typed amount, read by the console's one reader of typed amounts (lib/contract/typed-amount.ts): digits
 * and at most one point, every digit kept; a comma, grouping, sign or currency is refused with why, never guessed.
 */
export function readAmount(values: Pick<ArchiveFormValues, "amount" | "amount_in" | "currency">): TypedAmount {
  return readTypedAmount(values.amount, amountLabel(values));
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

/**
 * How the form reads its date and time: the wall clock in `timeZone`, the zone the form names (the person's,
 * lib/contract/time-zone.ts), never UTC by default. A date alone is the start of that day there. A time the clocks
 * skip is refused (`problem`); one they pass twice is the first of the two, and `note` says so.
 */
export function readCreatedAt(
  values: Pick<ArchiveFormValues, "date" | "time">,
  timeZone: string,
): { createdAt?: string; problem?: string; note?: string; reading?: WallTimeReading } {
  if (!values.date) return {};
  if (!DATE.test(values.date)) return { createdAt: values.date };
  const time = values.time || "00:00";
  if (!TIME.test(time)) return { createdAt: `${values.date}T${time}` };
  if (!values.time) {
    // The day's first instant there (midnight, or the end of a jump over it), as that wall time and its offset.
    const start = startOfDay(values.date, timeZone);
    const reading = readWallTimeAt(start, timeZone);
    return {
      createdAt: reading.iso,
      note: `A date alone is recorded as the start of that day in ${timeZone}: ${reading.wall} UTC${reading.offset}.`,
    };
  }
  const reading = readWallTime(values.date, values.time, timeZone);
  if (reading.kind === "missing") {
    // Sent without an offset, so the contract refuses it too, should this ever reach a request.
    return {
      createdAt: `${values.date}T${values.time}:00`,
      reading,
      problem: `${values.date} ${values.time} does not exist in ${timeZone}: clocks go from ${reading.from} to ${reading.to}`,
    };
  }
  const createdAt = `${values.date}T${values.time}:00${reading.offset}`;
  if (reading.kind === "repeated") {
    return {
      createdAt,
      reading,
      note: `${values.date} ${values.time} happens twice in ${timeZone} (clocks go back): the first one, UTC${reading.offset}, is recorded, not the second (UTC${reading.laterOffset}).`,
    };
  }
  return { createdAt, reading };
}

/** An instant as the wall time and offset `timeZone` shows it: "2026-03-29T00:00:00+01:00". */
function readWallTimeAt(instant: number, timeZone: string): { iso: string; wall: string; offset: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName.replace("GMT", "");
  const wall = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  return { iso: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`, wall, offset };
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
      const { problem } = readCreatedAt(ctx.value, timeZone);
      if (problem) ctx.issues.push({ code: "custom", input: ctx.value.time, path: ["time"], message: problem });
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
