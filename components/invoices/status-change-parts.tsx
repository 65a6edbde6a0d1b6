"use client";

import type { RefObject } from "react";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Textarea } from "@/components/ui/textarea";
import { REASON_MAX } from "@/lib/contract/list-query";
import { Problem } from "@/lib/contract/problem";
import { problemToFields } from "@/lib/contract/problem-to-fields";
import { type InvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";

// The pieces both status dialogs share: what will change, the webhook, the reason, and a failure.

export function statusLabel(status: string | null): string {
  if (!status) return "unknown";
  return STATUS_LABELS[status as InvoiceStatus] ?? status;
}

/** Phrasing content: it sits inside the dialog's description paragraph. */
export function ChangeSummary({ from, to }: { from: string; to: InvoiceStatus }) {
  return (
    <>
      The status changes from <strong>{from}</strong> to <strong>{STATUS_LABELS[to]}</strong>
      {to === "cancelled" ? ": no payment will be expected for this invoice." : "."}
    </>
  );
}

export function WebhookNote({ callbackUrl }: { callbackUrl?: string | null }) {
  return (
    <p className="text-sm text-muted-foreground">
      {callbackUrl ? (
        <>
          The payment provider sends a status webhook to <span className="font-mono text-xs break-all text-foreground">{callbackUrl}</span>.
        </>
      ) : (
        "No callback URL is set, so no webhook is sent."
      )}
    </p>
  );
}

/** The problem's field errors, by field: the provider's words about the reason or the status it refused. */
function fieldErrors(problem: unknown) {
  return problemToFields(problem instanceof Problem ? problem : null, { fields: ["status", "reason"] }).fields;
}

type ReasonFieldProps = {
  reason: string;
  setReason: (reason: string) => void;
  required: boolean;
  problem: unknown;
  reasonRef?: RefObject<HTMLTextAreaElement | null>;
};

export function ReasonField({ reason, setReason, required, problem, reasonRef }: ReasonFieldProps) {
  const error = fieldErrors(problem).reason;
  return (
    <Field
      label={required ? "Reason (required)" : "Reason (optional)"}
      description="Kept in the audit log with your name."
      error={error && `The reason ${error}.`}
      className="[&>label]:text-sm"
    >
      <Textarea
        ref={reasonRef}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required={required}
        maxLength={REASON_MAX}
        placeholder={required ? "e.g. Order voided at the customer's request (ticket #4821)" : ""}
      />
    </Field>
  );
}

/** Shown in the dialog when the change failed, unless the failure is the reason's (shown on the field). */
export function StatusChangeFailure({ problem }: { problem: unknown }) {
  if (!problem) return null;
  const typed = problem instanceof Problem ? problem : null;
  const errors = fieldErrors(problem);
  if (errors.reason) return null;
  return (
    <Notice role="alert" tone="danger">
      <p className="font-medium">{failureHeadline(typed)}</p>
      {errors.status ? (
        <p className="mt-1 text-xs">
          <span className="font-medium">Status:</span> {errors.status}
        </p>
      ) : (
        typed?.detail && <p className="mt-1 text-xs">{typed.detail}</p>
      )}
    </Notice>
  );
}

/** A failure in words a support person can act on, and whether anything changed. */
function failureHeadline(problem: Problem | null): string {
  switch (problem?.status) {
    case 401:
      return "Your session has ended. Taking you to sign in; nothing was changed.";
    case 403:
      if (problem.is("forbidden")) return "Your role does not allow status changes. Nothing was changed.";
      if (problem.is("cross_site_request")) return "The console refused the request; reload the page and try again. Nothing was changed.";
      if (problem.is("other_merchant")) return "This invoice belongs to another merchant account. Nothing was changed.";
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
