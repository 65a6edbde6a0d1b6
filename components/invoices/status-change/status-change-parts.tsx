"use client";

import Link from "next/link";
import { type RefObject, useEffect } from "react";
import { Button } from "@/components/ui/button";
import { ChoiceCard } from "@/components/ui/choice-card";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Textarea } from "@/components/ui/textarea";
import { actionProblem, useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { changeStatusFormAction } from "@/lib/console/invoices/actions";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { REASON_MAX } from "@/lib/contract/list-query";
import { Problem } from "@/lib/contract/problem";
import { problemToFields } from "@/lib/contract/problem-to-fields";
import { nothingReceivedSentence, type ReceivedFacts, receivedSentence, receivedSummary, shortfallSentence } from "@/lib/contract/received";
import { whoMay } from "@/lib/contract/roles";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_DESCRIPTIONS, STATUS_LABELS, statusLabel } from "@/lib/contract/status";
import type { TransitionOffer } from "@/lib/contract/transition-policy";

// The pieces both status dialogs share: what will change, the webhook, the reason, and a failure.

/** The invoice a status change is for: who it is, where its webhook goes, and what it has received. */
export type ChangingInvoice = { invoice_id: string; order_id: string | null; callback_url?: string | null } & ReceivedFacts;

export { statusLabel };

/** Phrasing content: it sits inside the dialog's description paragraph. No `to` yet: asks to choose one. */
export function ChangeSummary({ from, to }: { from: string; to: InvoiceStatus | null }) {
  if (!to)
    return (
      <>
        Choose the new status. It is now <strong>{from}</strong>.
      </>
    );
  return (
    <>
      The status changes from <strong>{from}</strong> to <strong>{STATUS_LABELS[to]}</strong>
      {to === "cancelled" ? ": no payment will be expected for this invoice." : "."}
    </>
  );
}

export function WebhookNote({ callbackUrl, approval = false }: { callbackUrl?: string | null; approval?: boolean }) {
  return (
    <p className="text-sm text-muted-foreground">
      {callbackUrl ? (
        <>
          {approval ? "Once approved, the payment provider sends" : "The payment provider sends"} a status webhook to{" "}
          <span className="font-mono text-xs break-all text-foreground">{callbackUrl}</span>.
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
  /** Controlled (the dialogs), or, without `setReason`, a plain field named `reason` that starts with it (the form without script). */
  reason: string;
  setReason?: (reason: string) => void;
  problem: unknown;
  reasonRef?: RefObject<HTMLTextAreaElement | null>;
};

/** An example reason for the status chosen: a cancel's is not a completion's. */
const REASON_EXAMPLES: Partial<Record<InvoiceStatus, string>> = {
  cancelled: "e.g. Order voided at the customer's request (ticket #4821)",
  completed: "e.g. Paid by bank transfer, seen on the statement of 3 March",
  expired: "e.g. The customer gave up on the order (ticket #4821)",
};
const REASON_EXAMPLE = "e.g. What happened, and where it is written down (ticket #4821)";

/** Every manual change says why: the provider keeps no reason, the console's audit log does. */
export function ReasonField({ reason, setReason, problem, reasonRef, to }: ReasonFieldProps & { to?: InvoiceStatus | null }) {
  const error = fieldErrors(problem).reason;
  // A reason refused (only spaces, say): the cursor goes back where it must be mended.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each refusal is a new problem, the same words or not
  useEffect(() => {
    if (error) reasonRef?.current?.focus();
  }, [problem, reasonRef]);
  const value = setReason
    ? { value: reason, onChange: (e: { target: { value: string } }) => setReason(e.target.value) }
    : { name: "reason", defaultValue: reason };
  return (
    <Field
      label="Reason (required)"
      description="Kept in the audit log with your name."
      error={error && `The reason ${error}.`}
      className="[&>label]:text-sm"
    >
      <Textarea ref={reasonRef} {...value} required maxLength={REASON_MAX} placeholder={(to && REASON_EXAMPLES[to]) || REASON_EXAMPLE} />
    </Field>
  );
}

/** What the invoices to cancel have already received (lib/contract/received.ts); nothing when nothing came in. */
export function ReceivedWarning({ sentence }: { sentence: string | null }) {
  if (!sentence) return null;
  return <Notice tone="warning">{sentence}</Notice>;
}

/** Before an invoice is marked completed: what never arrived (a part, or all of it), which it then counts as paid. */
function ShortfallWarning({ invoice, approval }: { invoice: ReceivedFacts; approval: boolean }) {
  const sentence = shortfallSentence(invoice) ?? nothingReceivedSentence(invoice);
  if (!sentence) return null;
  return (
    <Notice tone="warning">
      {sentence} {approval ? "Once approved, it" : "Completed, it"} counts as paid in full.
    </Notice>
  );
}

type StatusChangeFieldsProps = {
  invoice: Pick<ChangingInvoice, "callback_url"> & ReceivedFacts;
  /**
   * The new status to choose among the others, as the transition policy offers them to this person: controlled
   * (`onChoose`, the dialog) or a plain default (the form without script). None when the change is fixed (cancelling).
   */
  choice?: { offers: TransitionOffer[]; chosen: string | null; onChoose?: (status: InvoiceStatus) => void };
  /** The change as the policy answers it, once one is chosen: whether it waits for approval, and why. */
  offer: TransitionOffer | null;
  reason: ReasonFieldProps;
};

/** What every status change asks and says, in its dialog and in the form without script: one part. */
export function StatusChangeFields({ invoice, choice, offer, reason }: StatusChangeFieldsProps) {
  return (
    <>
      {choice && (
        <fieldset className="flex flex-col gap-1.5">
          {/* Nothing is preselected in the dialog: one stray Enter must not change an invoice. */}
          <legend className="mb-1 text-sm font-medium">New status</legend>
          {choice.offers.map(({ to, allowed, approval, refusal }) => (
            <ChoiceCard
              key={to}
              name="status"
              value={to}
              {...(choice.onChoose
                ? { checked: choice.chosen === to, onChange: () => choice.onChoose?.(to) }
                : { defaultChecked: choice.chosen === to })}
              required
              disabled={!allowed}
              label={approval ? `${STATUS_LABELS[to]} · needs approval` : STATUS_LABELS[to]}
              description={refusal ?? STATUS_DESCRIPTIONS[to]}
            />
          ))}
        </fieldset>
      )}
      {offer?.approval && <ApprovalNote why={offer.approval} />}
      <WebhookNote callbackUrl={invoice.callback_url} approval={Boolean(offer?.approval)} />
      {/* Said before a cancel only: once chosen in the dialog, or up front in the form without script when cancelling is one of its choices. */}
      {(offer?.to === "cancelled" || (choice && !choice.onChoose && choice.offers.some((o) => o.to === "cancelled" && o.allowed))) && (
        <ReceivedWarning sentence={receivedSentence(receivedSummary([invoice]))} />
      )}
      {offer?.to === "completed" && <ShortfallWarning invoice={invoice} approval={Boolean(offer.approval)} />}
      <ReasonField {...reason} to={offer?.to ?? (choice ? null : "cancelled")} />
      <StatusChangeFailure problem={reason.problem} />
    </>
  );
}

/** A change the policy gives a second person: said before it is asked, so nobody expects it done at once. */
export function ApprovalNote({ why }: { why: string }) {
  return (
    <Notice tone="neutral">
      <strong>Needs approval.</strong> {why} Nothing is sent to the payment provider until someone else approves it.{" "}
      {whoMay("invoices:approve")}
    </Notice>
  );
}

type ChangeFormProps = {
  invoice: ChangingInvoice;
  /** Every other status as the policy answers this person (lib/contract/transition-policy.ts). */
  offers: TransitionOffer[];
  /** `cancelled` (from "Cancel invoice"), another status, or `status` (from "Change status…": choose one). */
  change: string;
  /** What was typed before the session ended (kept in the sign-in page's `next`). */
  draft: { status?: string; reason?: string };
};

/**
 * The status change as the server draws it (`?change=cancelled`): what the dialogs ask, as a form that posts to
 * changeStatusFormAction. It works before the page's scripts load and without them; with them, the same
 * links open the dialogs instead (status-change.tsx). A refusal comes back here with the reason kept. With
 * scripts, an ended session signs in again in place (useFormAction); without them, off to sign in and back.
 */
export function ChangeForm({ invoice, offers, change, draft }: ChangeFormProps) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(changeStatusFormAction, {});
  const problem = actionProblem(state);
  const values = state.values ?? {};
  const fixed = (INVOICE_STATUSES as readonly string[]).includes(change) ? (change as InvoiceStatus) : null;
  const chosen = values.status ?? draft.status ?? fixed ?? "";
  const reason = values.reason ?? draft.reason ?? "";
  const order = invoice.order_id ?? invoice.invoice_id;
  const from = statusLabel(invoice.status);
  const back = invoiceHref(invoice.invoice_id);
  const title = fixed === "cancelled" ? `Cancel invoice for order ${order}?` : `Change the status of order ${order}`;
  const fixedOffer = fixed ? (offers.find((o) => o.to === fixed) ?? null) : null;

  return (
    <section
      aria-labelledby="change-form-title"
      className="flex w-full max-w-md flex-col gap-4 rounded-xl border border-border bg-card p-4 text-left shadow-sm sm:p-5"
    >
      <div className="flex flex-col gap-1.5">
        <h2 id="change-form-title" className="text-lg font-semibold">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">
          <ChangeSummary from={from} to={fixed} />
        </p>
      </div>
      <form key={state.answeredAt} action={action} onSubmit={onSubmit} className="flex flex-col gap-4">
        <DrawnForField />
        <input type="hidden" name="invoice_id" value={invoice.invoice_id} />
        <input type="hidden" name="change" value={change} />
        {fixed && <input type="hidden" name="status" value={fixed} />}
        <StatusChangeFields
          invoice={invoice}
          choice={fixed ? undefined : { offers, chosen }}
          offer={fixedOffer}
          reason={{ reason, problem }}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button asChild>
            <Link href={back}>{fixed === "cancelled" ? "Keep invoice" : "Close"}</Link>
          </Button>
          <Button type="submit" variant={fixed === "cancelled" ? "danger" : "primary"} loading={pending}>
            {pending
              ? "Saving…"
              : fixedOffer?.approval
                ? "Ask for approval"
                : fixed
                  ? fixed === "cancelled"
                    ? "Cancel invoice"
                    : `Set to ${STATUS_LABELS[fixed]}`
                  : "Change status"}
          </Button>
        </div>
      </form>
    </section>
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
  // The page was drawn for someone else than who is signed in now (lib/contract/drawn-for.ts): its detail says who.
  if (problem?.is("signed_in_as_someone_else")) return "Signed in as someone else, so nothing was changed.";
  if (problem?.is("transition_not_allowed")) return "The approval policy does not let you make this change. Nothing was changed.";
  if (problem?.is("approval_waiting")) return "Another change of this invoice is waiting for approval. Nothing was asked.";
  if (problem?.is("archived_invoice")) return "Archived records keep their status. Nothing was changed.";
  switch (problem?.status) {
    case 401:
      return "Your change was not sent, so nothing was changed.";
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
