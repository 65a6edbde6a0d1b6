"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useActionState, useEffect, useRef, useState } from "react";
import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import { Button } from "@/components/ui/button";
import { DAY_FORMAT, DateInput, TIME_FORMAT, TimeInput } from "@/components/ui/date-input";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { DrawnForField } from "@/lib/browser/page-person";
import { currencyListOptions } from "@/lib/browser/query/invoices";
import { toast } from "@/lib/browser/toast";
import type { ActionState } from "@/lib/console/bff/action";
import { recordArchivedFormAction } from "@/lib/console/invoices/actions";
import type { CurrencyList } from "@/lib/contract";
import {
  type ArchiveFormValues,
  amountLabel,
  EMPTY_ARCHIVE_FORM,
  type FormField,
  fieldMessage,
  REQUEST_FIELD_TO_FORM,
  readCreatedAt,
} from "@/lib/contract/archive-form-values";
import { ALLOWED_ERROR_PERCENT_DEFAULT, ORDER_ID_MAX, ORDER_NAME_MAX } from "@/lib/contract/archived-limits";
import { invoiceHref } from "@/lib/contract/invoice-href";
import type { Problem } from "@/lib/contract/problem";
import { problemToFields } from "@/lib/contract/problem-to-fields";
import { AmountPreviewSlot } from "./amount-preview-slot";
import type { FieldMessages } from "./archive-form-check";
import { useLeaveGuard } from "./use-leave-guard";

const loadCheck = () => import("./archive-form-check");
type Check = Awaited<ReturnType<typeof loadCheck>>;

const FIELDS = Object.keys(EMPTY_ARCHIVE_FORM) as FormField[];
/** A field judged as it changes, with the one whose rule it shares. */
const JUDGED_WITH: Partial<Record<FormField, FormField[]>> = { date: ["date", "time"], time: ["time", "date"] };

/**
 * Finance records one historical invoice. The contract judges every field as it is typed; the provider's
 * refusals land on the fields they name, in its words. One click, one invoice: the button is busy while the
 * server action (recordArchivedAction) runs and stays so once it succeeded, and a provider answers a repeated
 * order id as already recorded.
 *
 * The form is plain HTML that works before its script loads and without script: the fields are named and
 * uncontrolled, the currencies drawn by the server, and the form posts them to recordArchivedFormAction, which
 * reads them by the same rules (lib/contract/archive-form-values.ts) and comes back with what was typed and what
 * is wrong. Once its checking has loaded (archive-form-check.ts), the form is judged here from what the fields
 * hold, typed before or after, and sent as one request (recordArchivedAction). A session that ended meanwhile
 * is signed in again in place (the console layout's dialog) and the invoice then recorded; without script the
 * draft travels through the sign-in page and comes back as `initial`.
 */
export function ArchiveForm({
  initial,
  initialCurrencies,
}: {
  initial?: Partial<ArchiveFormValues>;
  initialCurrencies?: CurrencyList | null;
}) {
  const router = useRouter();
  const currencies = useQuery({ ...currencyListOptions(), initialData: initialCurrencies ?? undefined });
  // The answer of a form sent without script (the whole page comes back with it); with script it stays empty.
  const [posted, postAction] = useActionState<ActionState, FormData>(recordArchivedFormAction, {});
  const start: ArchiveFormValues = { ...EMPTY_ARCHIVE_FORM, ...initial, ...(posted.values as Partial<ArchiveFormValues> | undefined) };
  const postedErrors = postedFieldErrors(posted);
  const [values, setValues] = useState(start);
  const [errors, setErrors] = useState<FieldMessages>({});
  const [submitting, setSubmitting] = useState(false);
  const [recorded, setRecorded] = useState(false);
  const [failure, setFailure] = useState<{ title: string; detail?: string; more: string[] } | null>(null);
  const [check, setCheck] = useState<Check | null>(null);
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  // The date and time are read in the person's display zone, the one the server drew the page in, so the
  // label below is the same text in the HTML and in the browser (lib/contract/time-zone.ts).
  const timeZone = useTimeZone();
  const typeCode = currencies.isError || (!currencies.data && initialCurrencies === null);
  const read = () => readForm(formRef.current!, typeCode);
  const dirty = FIELDS.some((field) => values[field] !== start[field]);
  const leaveDialog = useLeaveGuard(dirty && !recorded, "The archived invoice");

  // The fields the person changed, judged as they change; what was typed before the scripts arrived counts too.
  const changedFields = useRef(new Set<FormField>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration
  useEffect(() => {
    let live = true;
    const typed = read();
    setValues(typed);
    for (const field of FIELDS) if (typed[field] !== start[field]) changedFields.current.add(field);
    void loadCheck().then((loaded) => {
      if (!live) return;
      setCheck(loaded);
      setErrors(pick(loaded.judgeArchiveForm(read(), timeZone), [...changedFields.current]));
    });
    return () => {
      live = false;
    };
  }, []);

  const currency = values.currency;
  const currencyName = currencies.data?.currencies.find((c) => c.code === currency)?.name;

  function changed(event: FormEvent<HTMLFormElement>) {
    const field = (event.target as HTMLInputElement).name as FormField;
    if (!FIELDS.includes(field)) return;
    const now = read();
    setValues(now);
    const fields = JUDGED_WITH[field] ?? [field];
    for (const judged of fields) changedFields.current.add(judged);
    if (check) setErrors((shown) => ({ ...shown, ...pick(check.judgeArchiveForm(now, timeZone), fields) }));
  }

  function focus(field: FormField) {
    const element = formRef.current?.elements.namedItem(field);
    ((element instanceof RadioNodeList ? element[0] : element) as HTMLElement | null)?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    // With script the form is judged and sent here (its checking loads now if it has not yet); the action
    // runs only when the form is posted without script.
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    const checking = check ?? (await loadCheck());
    const data = read();
    const judged = checking.judgeArchiveForm(data, timeZone);
    setErrors(judged);
    const refused = FIELDS.find((field) => judged[field]);
    if (refused) {
      inFlight.current = false;
      return focus(refused);
    }
    setSubmitting(true);
    setFailure(null);
    const { answer, problem } = await checking.sendArchiveForm(data, timeZone);
    setSubmitting(false);
    if (answer) {
      const { invoice } = answer;
      setRecorded(true);
      toast.success(`Archived invoice recorded for order ${invoice.order_id ?? data.order_id}.`);
      router.push(invoiceHref(invoice.invoice_id));
    } else {
      inFlight.current = false;
      const mapped = problemToFields(problem, { fields: Object.keys(REQUEST_FIELD_TO_FORM) });
      const named: FieldMessages = {};
      for (const [name, message] of Object.entries(mapped.fields)) {
        const field = REQUEST_FIELD_TO_FORM[name] as FormField;
        named[field] ??= fieldMessage(field, message);
      }
      setErrors((shown) => ({ ...shown, ...named }));
      const first = Object.keys(named)[0] as FormField | undefined;
      if (first) focus(first);
      if (Object.keys(mapped.fields).length === 0 || mapped.form.length) {
        setFailure({
          title: failureTitle(problem),
          detail: Object.keys(mapped.fields).length ? undefined : problem.detail,
          more: mapped.form,
        });
      }
    }
  }

  const amountIn = values.amount_in;
  const createdAt = readCreatedAt(values, timeZone);
  const busy = submitting || recorded;
  const error = (field: FormField) => errors[field] ?? postedErrors[field];
  const shownFailure = failure ?? (posted.error && Object.keys(postedErrors).length === 0 ? { title: posted.error, more: [] } : null);

  return (
    <form
      ref={formRef}
      action={postAction}
      onSubmit={submit}
      onChange={changed}
      noValidate
      aria-label="Record an archived invoice"
      className="flex flex-col gap-5"
    >
      <DrawnForField />
      <input type="hidden" name="time_zone" value={timeZone} />
      <div className="grid gap-4 md:grid-cols-2">
        <Field
          label="Order id (required)"
          error={error("order_id")}
          description="Your order's identifier: unique, it keeps the same order from being recorded twice."
        >
          <Input
            name="order_id"
            defaultValue={start.order_id}
            autoComplete="off"
            maxLength={ORDER_ID_MAX + 50}
            placeholder="e.g. LEGACY-2025-0042"
          />
        </Field>
        <Field label="Order name" error={error("order_name")} description="What was sold, for reference.">
          <Input
            name="order_name"
            defaultValue={start.order_name}
            autoComplete="off"
            maxLength={ORDER_NAME_MAX + 50}
            placeholder="e.g. Winter workshop ticket"
          />
        </Field>

        <Field
          label="Currency (required)"
          error={error("currency")}
          description={
            typeCode
              ? "The list of currencies could not be loaded: type the code (BTC, ETH…)."
              : "The cryptocurrency the invoice was paid in."
          }
        >
          {typeCode ? (
            <Input name="currency" defaultValue={start.currency} autoComplete="off" placeholder="BTC" />
          ) : (
            <Select
              name="currency"
              defaultValue={start.currency}
              className="w-full"
              disabled={currencies.isPending}
              options={[
                { value: "", label: currencies.isPending ? "Loading currencies…" : "Choose a currency" },
                ...(currencies.data?.currencies ?? []).map((c) => ({
                  value: c.code,
                  label: c.name && c.name !== c.code ? `${c.code} · ${c.name}` : c.code,
                })),
              ]}
            />
          )}
        </Field>

        <fieldset className="flex flex-col gap-1">
          <legend className="text-xs font-medium text-muted-foreground">Amount (required)</legend>
          <div className="flex items-start gap-2">
            <div
              role="radiogroup"
              aria-label="Amount in"
              className="inline-flex h-control shrink-0 items-stretch rounded-md border border-input bg-muted p-0.5 text-sm"
            >
              {(["fiat", "crypto"] as const).map((side) => (
                <label
                  key={side}
                  className="flex cursor-pointer items-center rounded px-2.5 font-medium text-muted-foreground has-checked:bg-card has-checked:text-foreground has-checked:shadow-xs has-focus-visible:outline-2 has-focus-visible:outline-ring"
                >
                  <input type="radio" value={side} name="amount_in" defaultChecked={start.amount_in === side} className="sr-only" />
                  {side === "fiat" ? "EUR" : currency || "Crypto"}
                </label>
              ))}
            </div>
            <Field label={amountLabel(values)} hideLabel error={error("amount")} className="grow">
              <Input
                name="amount"
                defaultValue={start.amount}
                inputMode="decimal"
                autoComplete="off"
                placeholder={amountIn === "fiat" ? "e.g. 49.90" : "e.g. 0.00081"}
                className="text-right tabular-nums"
              />
            </Field>
          </div>
          <AmountPreviewSlot values={values} currencyName={currencyName} timeZone={timeZone} amountRefused={Boolean(error("amount"))} />
        </fieldset>

        <Field
          label="Allowed error (%)"
          error={error("allowed_error_percent")}
          description={`How far a payment may fall short and still count as paid, 0–100. Default ${ALLOWED_ERROR_PERCENT_DEFAULT} %.`}
        >
          <Input
            name="allowed_error_percent"
            defaultValue={start.allowed_error_percent}
            inputMode="numeric"
            autoComplete="off"
            className="text-right tabular-nums"
          />
        </Field>
        <Field
          label="Callback URL"
          error={error("callback_url")}
          description="Where status webhooks would go (archived invoices send none)."
        >
          <Input
            name="callback_url"
            defaultValue={start.callback_url}
            type="url"
            autoComplete="off"
            placeholder="https://shop.example.com/webhooks"
          />
        </Field>

        <div className="flex flex-col gap-1 md:col-span-2">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Created on" error={error("date")} description={DAY_FORMAT}>
              <DateInput name="date" defaultValue={start.date} />
            </Field>
            <Field label={`Time (${timeZone})`} error={error("time")} description={`${TIME_FORMAT}, 24-hour`}>
              <TimeInput name="time" defaultValue={start.time} />
            </Field>
          </div>
          <p className="text-xs text-muted-foreground">
            {!values.date
              ? "Leave empty to record it as created now. Not in the future."
              : createdAt.problem
                ? createdAt.reading?.kind === "missing"
                  ? `Choose a time that exists in ${timeZone}.`
                  : null
                : createdAt.note
                  ? createdAt.note
                  : createdAt.reading
                    ? `Sent as ${values.date} ${values.time} UTC${createdAt.reading.kind === "missing" ? "" : createdAt.reading.offset} (${timeZone}).`
                    : null}
          </p>
        </div>
      </div>

      {shownFailure && (
        <div role="alert" className="rounded-md border border-danger-text/40 bg-danger/10 px-3 py-2 text-sm text-danger-text">
          <p className="font-medium">{shownFailure.title}</p>
          {"detail" in shownFailure && shownFailure.detail && <p className="mt-1">{shownFailure.detail}</p>}
          {shownFailure.more.map((m) => (
            <p key={m} className="mt-1">
              {m}
            </p>
          ))}
        </div>
      )}

      <div className="flex flex-wrap items-center justify-end gap-3 border-t border-border pt-4">
        <p className="mr-auto text-xs text-muted-foreground">Recorded with status Archived, in your name, in the audit log.</p>
        <Button type="submit" variant="primary" loading={busy}>
          {recorded ? "Opening the invoice…" : submitting ? "Recording…" : "Record archived invoice"}
        </Button>
      </div>
      {leaveDialog}
    </form>
  );
}

/** The form's values as its fields hold them; a currency typed as a code is read as one. */
function readForm(form: HTMLFormElement, typeCode: boolean): ArchiveFormValues {
  const data = new FormData(form);
  const values = Object.fromEntries(FIELDS.map((field) => [field, String(data.get(field) ?? "")])) as ArchiveFormValues;
  if (values.amount_in !== "crypto") values.amount_in = "fiat";
  if (typeCode) values.currency = values.currency.trim().toUpperCase();
  return values;
}

/** `judged`'s messages for `fields`, a field without one cleared. */
function pick(judged: FieldMessages, fields: FormField[]): FieldMessages {
  return Object.fromEntries(fields.map((field) => [field, judged[field]]));
}

/** The fields a refusal of the form sent without script names, on the form's own fields, in its words. */
function postedFieldErrors(posted: ActionState): Partial<Record<FormField, string>> {
  const shown: Partial<Record<FormField, string>> = {};
  for (const [name, message] of Object.entries(posted.fieldErrors ?? {})) {
    const field = (REQUEST_FIELD_TO_FORM[name] ?? (name in EMPTY_ARCHIVE_FORM ? name : null)) as FormField | null;
    if (field && !shown[field]) shown[field] = fieldMessage(field, message);
  }
  return shown;
}

function failureTitle(problem: Problem): string {
  switch (problem.status) {
    case 0:
      return "The console could not be reached; nothing was recorded. Check your connection and try again.";
    case 401:
      return "Your session has ended, so nothing was recorded. Sign in again, then record it once more: everything typed is kept.";
    case 403:
      return problem.code === "forbidden"
        ? "Your role does not allow recording archived invoices."
        : "The payment provider refused the request; nothing was recorded.";
    case 400:
    case 422:
      return "The payment provider did not accept the invoice; nothing was recorded.";
    case 429:
      return "Too many requests to the payment provider; wait a moment and try again.";
    case 504:
      return "No answer came back in time, so the invoice may or may not have been recorded. Send it again: a recorded order id is reported as such.";
    default:
      return `${problem.title}. Nothing was recorded; try again in a minute.`;
  }
}
