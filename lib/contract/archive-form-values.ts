import { ALLOWED_ERROR_PERCENT_DEFAULT } from "@/lib/contract/archived-limits";
import { isCalendarDay, readWallTime, startOfDay, type WallTimeReading } from "@/lib/contract/time-zone";

/*
 * The archive form's values are what the person typed (strings); the contract (lib/contract) judges the
 * request they make. The form's schema (archive-form-schema.ts) runs the contract on that request and puts each broken rule back on
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

/** The amount box's name, as its label reads and as every message about it starts. */
export function amountLabel(values: Pick<ArchiveFormValues, "amount_in" | "currency">): string {
  return values.amount_in === "fiat" ? "Amount in EUR" : `Amount in ${values.currency || "crypto"}`;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** What is wrong with the date or the time as typed, on the field that holds it. */
export type CreatedAtProblem = { field: "date" | "time"; message: string };

/**
 * How the form reads its date and time: the wall clock in `timeZone`, the zone the form names (the person's,
 * lib/contract/time-zone.ts), never UTC by default. A date alone is the start of that day there. A time the clocks
 * skip is refused (`problem`); one they pass twice is the first of the two, and `note` says so.
 */
export function readCreatedAt(
  values: Pick<ArchiveFormValues, "date" | "time">,
  timeZone: string,
): { createdAt?: string; problem?: CreatedAtProblem; note?: string; reading?: WallTimeReading } {
  if (!values.date) return {};
  if (!DATE.test(values.date)) return { createdAt: values.date };
  if (!isCalendarDay(values.date)) {
    return {
      createdAt: values.date,
      problem: { field: "date", message: `${values.date} is not a day of the calendar: check the month's last day` },
    };
  }
  const time = values.time || "00:00";
  if (!TIME.test(time)) {
    return {
      createdAt: `${values.date}T${time}`,
      problem: { field: "time", message: "Time must be HH:MM on a 24-hour clock, from 00:00 to 23:59" },
    };
  }
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
      problem: {
        field: "time",
        message: `${values.date} ${values.time} does not exist in ${timeZone}: clocks go from ${reading.from} to ${reading.to}`,
      },
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
