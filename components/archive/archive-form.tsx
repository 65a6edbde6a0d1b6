"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useActionState, useMemo, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import { Button } from "@/components/ui/button";
import { DAY_FORMAT, DateInput, TIME_FORMAT, TimeInput } from "@/components/ui/date-input";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { runAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { currencyListOptions } from "@/lib/browser/query/invoices";
import { toast } from "@/lib/browser/toast";
import type { ActionState } from "@/lib/console/bff/action";
import { recordArchivedAction, recordArchivedFormAction } from "@/lib/console/invoices/actions";
import { ALLOWED_ERROR_PERCENT_DEFAULT, type CurrencyList, ORDER_ID_MAX, ORDER_NAME_MAX } from "@/lib/contract";
import { archiveFormSchema, readAmount, toArchiveRequest } from "@/lib/contract/archive-form-schema";
import {
  type ArchiveFormValues,
  amountLabel,
  EMPTY_ARCHIVE_FORM,
  type FormField,
  fieldMessage,
  REQUEST_FIELD_TO_FORM,
  readCreatedAt,
} from "@/lib/contract/archive-form-values";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { stringifyJson } from "@/lib/contract/money-json";
import type { Problem } from "@/lib/contract/problem";
import { problemToFields } from "@/lib/contract/problem-to-fields";
import { previewSentence } from "./archive-preview";
import { useLeaveGuard } from "./use-leave-guard";
import { usePreviewRates } from "./use-rates";

/**
 * Finance records one historical invoice. The contract judges every field as it is typed; the provider's
 * refusals land on the fields they name, in its words. One click, one invoice: the button is busy while the
 * server action (recordArchivedAction) runs and stays so once it succeeded, and a provider answers a repeated
 * order id as already recorded.
 *
 * It also works before its script loads and without script: the fields are named, the currencies
 * drawn by the server, and the form posts them to recordArchivedFormAction, which reads them by the same rules
 * (lib/contract/archive-form-values.ts) and comes back with what was typed and what is wrong. With script,
 * the form is judged here and sent as one request (recordArchivedAction). A session that ended meanwhile is
 * signed in again in place (the console layout's dialog) and the invoice then recorded; without script the draft travels
 * through the sign-in page and comes back as `initial`.
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
  const [recorded, setRecorded] = useState(false);
  const [failure, setFailure] = useState<{ title: string; detail?: string; more: string[] } | null>(null);
  const inFlight = useRef(false);

  // The date and time are read in the person's display zone, the one the server drew the page in, so the
  // label below is the same text in the HTML and in the browser (lib/contract/time-zone.ts).
  const timeZone = useTimeZone();
  const resolver = useMemo(() => zodResolver(archiveFormSchema(timeZone)), [timeZone]);
  const form = useForm<ArchiveFormValues>({ resolver, defaultValues: start, mode: "onChange" });
  const { register, handleSubmit, setError, watch, formState } = form;
  const { errors, isSubmitting, isDirty } = formState;
  const leaveDialog = useLeaveGuard(isDirty && !recorded, "The archived invoice");

  const values = watch();
  const currency = values.currency;
  const currencyName = currencies.data?.currencies.find((c) => c.code === currency)?.name;

  async function submit(data: ArchiveFormValues) {
    if (inFlight.current) return;
    inFlight.current = true;
    setFailure(null);
    const form = new FormData();
    // Amounts as JSON numbers with exactly the typed digits, never through a float.
    form.set("request", stringifyJson(toArchiveRequest(data, timeZone)));
    const { answer, problem } = await runAction(recordArchivedAction, form);
    if (answer) {
      const { invoice } = answer;
      setRecorded(true);
      toast.success(`Archived invoice recorded for order ${invoice.order_id ?? data.order_id}.`);
      router.push(invoiceHref(invoice.invoice_id));
    } else {
      inFlight.current = false;
      const mapped = problemToFields(problem, { fields: Object.keys(REQUEST_FIELD_TO_FORM) });
      let first = true;
      for (const [name, message] of Object.entries(mapped.fields)) {
        const field = REQUEST_FIELD_TO_FORM[name] as FormField;
        setError(field, { type: "server", message: fieldMessage(field, message) }, { shouldFocus: first });
        first = false;
      }
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
  // The preview converts at the rate of the creation date (current rates when it is empty), and names it.
  const previewRates = usePreviewRates(values.date ? (createdAt.createdAt ?? "") : undefined);
  const typed = readAmount(values);
  const preview = previewSentence({
    rates: previewRates,
    currency,
    currencyName,
    amountIn,
    amount: typed.kind === "amount" ? typed.value : null,
    timeZone,
    amountRefused: Boolean(errors.amount ?? postedErrors.amount),
  });
  const busy = isSubmitting || recorded;
  const typeCode = currencies.isError || (!currencies.data && initialCurrencies === null);
  const error = (field: FormField) => errors[field]?.message ?? postedErrors[field];
  const shownFailure = failure ?? (posted.error && Object.keys(postedErrors).length === 0 ? { title: posted.error, more: [] } : null);

  return (
    <form
      action={postAction}
      onSubmit={handleSubmit(submit)}
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
            {...register("order_id")}
            defaultValue={start.order_id}
            autoComplete="off"
            maxLength={ORDER_ID_MAX + 50}
            placeholder="e.g. LEGACY-2025-0042"
          />
        </Field>
        <Field label="Order name" error={error("order_name")} description="What was sold, for reference.">
          <Input
            {...register("order_name")}
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
            <Input
              {...register("currency", { setValueAs: (v: string) => v.trim().toUpperCase() })}
              defaultValue={start.currency}
              autoComplete="off"
              placeholder="BTC"
            />
          ) : (
            <Select
              {...register("currency")}
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
                  <input
                    type="radio"
                    value={side}
                    {...register("amount_in")}
                    defaultChecked={start.amount_in === side}
                    className="sr-only"
                  />
                  {side === "fiat" ? "EUR" : currency || "Crypto"}
                </label>
              ))}
            </div>
            <Field label={amountLabel(values)} hideLabel error={error("amount")} className="grow">
              <Input
                {...register("amount")}
                defaultValue={start.amount}
                inputMode="decimal"
                autoComplete="off"
                placeholder={amountIn === "fiat" ? "49.90" : "0.00081"}
                className="text-right tabular-nums"
              />
            </Field>
          </div>
          <p className="text-xs text-muted-foreground" aria-live="polite" data-testid="amount-preview" data-rate-kind={previewRates.kind}>
            {preview}
          </p>
        </fieldset>

        <Field
          label="Allowed error (%)"
          error={error("allowed_error_percent")}
          description={`How far a payment may fall short and still count as paid, 0–100. Default ${ALLOWED_ERROR_PERCENT_DEFAULT} %.`}
        >
          <Input
            {...register("allowed_error_percent")}
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
            {...register("callback_url")}
            defaultValue={start.callback_url}
            type="url"
            autoComplete="off"
            placeholder="https://shop.example.com/webhooks"
          />
        </Field>

        <div className="flex flex-col gap-1 md:col-span-2">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Created on" error={error("date")} description={DAY_FORMAT}>
              <DateInput {...register("date", { deps: ["time"] })} defaultValue={start.date} />
            </Field>
            <Field label={`Time (${timeZone})`} error={error("time")} description={`${TIME_FORMAT}, 24-hour`}>
              <TimeInput {...register("time", { deps: ["date"] })} defaultValue={start.time} />
            </Field>
          </div>
          <p className="text-xs text-muted-foreground">
            {!values.date
              ? "Leave empty to record it as created now. Not in the future."
              : createdAt.problem
                ? `Choose a time that exists in ${timeZone}.`
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
          {recorded ? "Opening the invoice…" : isSubmitting ? "Recording…" : "Record archived invoice"}
        </Button>
      </div>
      {leaveDialog}
    </form>
  );
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
