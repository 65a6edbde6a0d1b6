"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { INVOICE_STATUSES, invoiceSchema, REASON_MAX, STATUS_DESCRIPTIONS, STATUS_LABELS, type InvoiceStatus } from "@/lib/invoicing";
import { Problem } from "@/lib/problem";
import { fetchJson } from "@/lib/query/fetch-json";
import { invoiceKeys } from "@/lib/query/invoices";
import { invoiceApiPath } from "./invoice-href";

type Props = {
  invoice: { invoice_id: string; status: string | null; order_id: string | null; callback_url?: string | null };
  /** Crypto already received for this invoice, formatted; cancelling does not return it. */
  received: string | null;
};

/**
 * Support's control: "Cancel invoice" up front, any other status behind "Change status…". Both open one
 * dialog that says what will happen, takes the reason, and shows progress and any failure in plain words.
 */
export function StatusChange({ invoice, received }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  // "cancel" is the one-click support action; "change" lets the person pick any other status.
  const [mode, setMode] = useState<"cancel" | "change">("cancel");
  const [target, setTarget] = useState<InvoiceStatus | null>(null);
  const [reason, setReason] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const router = useRouter();
  const queryClient = useQueryClient();
  const ids = { title: useId(), reason: useId(), reasonError: useId() };

  const change = useMutation({
    mutationFn: () =>
      fetchJson(invoiceApiPath(invoice.invoice_id), invoiceSchema, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: target, reason }),
      }),
    onSuccess: async (updated) => {
      setDone(`Status is now ${statusLabel(updated.status)}.`);
      // "Cancel invoice" goes away once cancelled: focus lands on the control that stays.
      if (updated.status === "cancelled") opener.current = changeButton.current;
      close();
      // The page (header, timeline) is rendered on the server; lists are cached in the browser.
      router.refresh();
      await queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    },
  });

  function open(nextMode: "cancel" | "change", button: HTMLButtonElement) {
    opener.current = button;
    setMode(nextMode);
    // Nothing is preselected when changing: one stray Enter must not change an invoice.
    setTarget(nextMode === "cancel" ? "cancelled" : null);
    setReason("");
    setDone(null);
    change.reset();
    dialog.current?.showModal();
  }

  function close() {
    dialog.current?.close();
  }

  const problem = change.error instanceof Problem ? change.error : null;
  const reasonError = problem?.errors?.find((e) => e.pointer === "/reason")?.detail;
  // The provider's own words about the status it refused (any error shape; see lib/upstream/error-body.ts).
  const statusError = problem?.errors?.find((e) => e.pointer === "/status")?.detail;
  const cancelling = mode === "cancel";
  const reasonRequired = target === "cancelled";
  const from = statusLabel(invoice.status);
  const order = invoice.order_id ?? invoice.invoice_id;

  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex gap-2">
        {invoice.status !== "cancelled" && (
          <Button variant="danger" onClick={(e) => open("cancel", e.currentTarget)}>
            Cancel invoice
          </Button>
        )}
        <Button ref={changeButton} onClick={(e) => open("change", e.currentTarget)}>
          Change status…
        </Button>
      </div>
      <p role="status" className="text-sm text-emerald-700">{done}</p>

      <dialog
        ref={dialog}
        aria-labelledby={ids.title}
        onClose={() => opener.current?.focus()}
        // While the change runs, the dialog stays: its outcome must be seen.
        onCancel={(event) => change.isPending && event.preventDefault()}
        className="m-auto w-full max-w-lg rounded-xl border border-zinc-200 p-0 shadow-xl backdrop:bg-zinc-900/40"
      >
        <form
          className="flex flex-col gap-4 p-6"
          onSubmit={(event) => {
            event.preventDefault();
            if (target) change.mutate();
          }}
        >
          <h2 id={ids.title} className="text-lg font-semibold">
            {cancelling ? `Cancel invoice for order ${order}?` : `Change the status of order ${order}`}
          </h2>

          {!cancelling && (
            <fieldset className="flex flex-col gap-1.5">
              <legend className="mb-1 text-sm font-medium text-zinc-700">New status</legend>
              {INVOICE_STATUSES.filter((s) => s !== invoice.status).map((s) => (
                <label key={s} className="flex cursor-pointer items-start gap-2 rounded-md border border-zinc-200 px-3 py-2 text-sm has-checked:border-indigo-500 has-checked:bg-indigo-50">
                  <input type="radio" name="status" value={s} checked={target === s} onChange={() => setTarget(s)} required className="mt-0.5" />
                  <span>
                    <span className="font-medium">{STATUS_LABELS[s]}</span>
                    <span className="block text-xs text-zinc-600">{STATUS_DESCRIPTIONS[s]}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}

          <div className="rounded-md bg-zinc-50 p-3 text-sm text-zinc-700">
            <p>
              {target ? (
                <>
                  The status changes from <strong>{from}</strong> to <strong>{STATUS_LABELS[target]}</strong>
                  {target === "cancelled" ? ": no payment will be expected for this invoice." : "."}
                </>
              ) : (
                <>Choose the new status. It is now <strong>{from}</strong>.</>
              )}
            </p>
            <p className="mt-1">
              {invoice.callback_url ? (
                <>The payment provider sends a status webhook to <span className="font-mono text-xs break-all">{invoice.callback_url}</span>.</>
              ) : (
                "No callback URL is set, so no webhook is sent."
              )}
            </p>
          </div>

          {target === "cancelled" && received && (
            <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              <strong>{received}</strong> has already been received for this invoice. Cancelling does not send it back:
              arrange any refund separately.
            </p>
          )}

          <label htmlFor={ids.reason} className="flex flex-col gap-1 text-sm font-medium text-zinc-700">
            {reasonRequired ? "Reason (required)" : "Reason (optional)"}
            <textarea
              id={ids.reason}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required={reasonRequired}
              maxLength={REASON_MAX}
              rows={3}
              placeholder={reasonRequired ? "e.g. Order voided at the customer's request (ticket #4821)" : ""}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? ids.reasonError : undefined}
              className="rounded-md border border-zinc-300 px-3 py-2 font-normal shadow-xs aria-invalid:border-rose-500"
            />
            <span className="text-xs font-normal text-zinc-500">Kept in the audit log with your name.</span>
            {reasonError && (
              <span id={ids.reasonError} className="text-xs font-normal text-rose-700">
                The reason {reasonError}.
              </span>
            )}
          </label>

          {change.isError && !reasonError && (
            <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
              <p className="font-medium">{failureHeadline(problem)}</p>
              {statusError ? (
                <p className="mt-1 text-xs">
                  <span className="font-medium">Status:</span> {statusError}
                </p>
              ) : (
                problem?.detail && <p className="mt-1 text-xs">{problem.detail}</p>
              )}
            </div>
          )}

          <div className="flex justify-end gap-2">
            <Button onClick={close} disabled={change.isPending}>
              {cancelling ? "Keep invoice" : "Close"}
            </Button>
            <Button type="submit" variant={cancelling ? "danger" : "primary"} disabled={change.isPending || !target}>
              {change.isPending
                ? cancelling ? "Cancelling…" : "Saving…"
                : cancelling ? "Cancel invoice" : target ? `Set to ${STATUS_LABELS[target]}` : "Choose a status"}
            </Button>
          </div>
        </form>
      </dialog>
    </div>
  );
}

function statusLabel(status: string | null): string {
  if (!status) return "unknown";
  return STATUS_LABELS[status as InvoiceStatus] ?? status;
}

/** A failure in words a support person can act on, and whether anything changed. */
function failureHeadline(problem: Problem | null): string {
  switch (problem?.status) {
    case 401:
      return "Your session has ended. Taking you to sign in; nothing was changed.";
    case 403:
      if (problem.code === "forbidden") return "Your role does not allow status changes. Nothing was changed.";
      if (problem.code === "cross_site_request") return "The console refused the request; reload the page and try again. Nothing was changed.";
      if (problem.code === "other_merchant") return "This invoice belongs to another merchant account. Nothing was changed.";
      return "The payment provider refused this change. Nothing was changed.";
    case 404:
      return "The payment provider no longer knows this invoice. Nothing was changed.";
    case 422:
    case 400:
      return "The payment provider did not accept this status. Nothing was changed.";
    case 429:
      return "Too many requests to the payment provider; wait a moment and try again. Nothing was changed.";
    case 504:
    case 0:
      return "No answer came back, so the change may or may not have been made. Close this and reload the page to see the current status.";
    default:
      return "The payment provider failed or could not be reached; try again in a minute. Nothing was changed.";
  }
}
