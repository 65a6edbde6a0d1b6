"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useActionState, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ChoiceCard } from "@/components/ui/choice-card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";
import { runAction } from "@/lib/browser/action";
import { invoiceKeys } from "@/lib/browser/query/invoices";
import { changeStatusAction } from "@/lib/console/invoices/actions";
import type { Problem } from "@/lib/contract/problem";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_DESCRIPTIONS, STATUS_LABELS } from "@/lib/contract/status";
import { ChangeSummary, ReasonField, StatusChangeFailure, statusLabel, WebhookNote } from "./status-change-parts";

type Props = {
  invoice: { invoice_id: string; status: string | null; order_id: string | null; callback_url?: string | null };
  /** Crypto already received for this invoice, formatted; cancelling does not return it. */
  received: string | null;
};

/** The last change this control made since a dialog opened: none yet, done, or refused with a problem. */
type Outcome = { done: boolean; problem: Problem | null };
const NONE: Outcome = { done: false, problem: null };

/**
 * Support's control: "Cancel invoice" up front (a confirmation that takes the reason), any other status
 * behind "Change status…" (a dialog to pick it). Both say what will happen, show progress and any failure
 * in plain words, and cannot be dismissed while the change runs. Both run one server action
 * (changeStatusAction: the guard, the use case and the audit trail of PATCH /api/invoices/{id}); the
 * dialogs need script to open, so the action is awaited (lib/browser/action.ts, runAction).
 */
export function StatusChange({ invoice, received }: Props) {
  const changeButton = useRef<HTMLButtonElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [changeOpen, setChangeOpen] = useState(false);
  const [target, setTarget] = useState<InvoiceStatus | null>(null);
  const [reason, setReason] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const router = useRouter();
  const queryClient = useQueryClient();

  const [outcome, setOutcome] = useState<Outcome>(NONE);

  /** Changes the status: true when it changed, false when it was refused (the dialog shows why). */
  async function change(status: InvoiceStatus): Promise<boolean> {
    const form = new FormData();
    form.set("invoice_id", invoice.invoice_id);
    form.set("status", status);
    form.set("reason", reason);
    const { answer, problem } = await runAction(changeStatusAction, form);
    if (!answer) {
      setOutcome({ done: false, problem });
      return false;
    }
    setOutcome({ done: true, problem: null });
    setDone(`Status is now ${statusLabel(answer.status)}.`);
    setChangeOpen(false);
    // The page (header, timeline) is rendered on the server; lists are cached in the browser.
    router.refresh();
    await queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    return true;
  }
  // The "Change status…" dialog's form; its status is the one picked (a controlled choice).
  const [, submitChange, pending] = useActionState(async () => {
    if (target) await change(target);
  }, undefined);

  /** A fresh start each time a dialog opens: no old reason, error or outcome. */
  function reset(nextTarget: InvoiceStatus | null) {
    setTarget(nextTarget);
    setReason("");
    setDone(null);
    setOutcome(NONE);
  }

  const order = invoice.order_id ?? invoice.invoice_id;
  const from = statusLabel(invoice.status);
  const parts = { reason, setReason, required: target === "cancelled", problem: outcome.problem, reasonRef };

  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <div className="flex flex-wrap gap-2">
        {invoice.status !== "cancelled" && (
          <ConfirmDialog
            tone="danger"
            trigger={<Button variant="danger">Cancel invoice</Button>}
            onOpenChange={(open) => open && reset("cancelled")}
            title={`Cancel invoice for order ${order}?`}
            description={<ChangeSummary from={from} to="cancelled" />}
            confirmLabel="Cancel invoice"
            pendingLabel="Cancelling…"
            cancelLabel="Keep invoice"
            onOpenAutoFocus={(event) => {
              // The reason is required: start there, not on "Keep invoice".
              event.preventDefault();
              reasonRef.current?.focus();
            }}
            onCloseAutoFocus={(event) => {
              // Once cancelled, "Cancel invoice" goes away: focus lands on the control that stays.
              if (outcome.done) {
                event.preventDefault();
                changeButton.current?.focus();
              }
            }}
            onConfirm={() => change("cancelled")}
          >
            <WebhookNote callbackUrl={invoice.callback_url} />
            <ReceivedWarning received={received} />
            <ReasonField {...parts} />
            <StatusChangeFailure problem={outcome.problem} />
          </ConfirmDialog>
        )}
        <Dialog
          open={changeOpen}
          onOpenChange={(open) => {
            // While the change runs its outcome must be seen: Escape and outside clicks wait.
            if (pending) return;
            if (open) reset(null);
            setChangeOpen(open);
          }}
        >
          <DialogTrigger asChild>
            <Button ref={changeButton}>Change status…</Button>
          </DialogTrigger>
          <DialogContent showClose={false}>
            <form className="flex flex-col gap-4" action={submitChange}>
              <DialogHeader>
                <DialogTitle>Change the status of order {order}</DialogTitle>
                <DialogDescription>
                  {target ? (
                    <ChangeSummary from={from} to={target} />
                  ) : (
                    <>
                      Choose the new status. It is now <strong>{from}</strong>.
                    </>
                  )}
                </DialogDescription>
              </DialogHeader>
              <fieldset className="flex flex-col gap-1.5">
                {/* Nothing is preselected: one stray Enter must not change an invoice. */}
                <legend className="mb-1 text-sm font-medium">New status</legend>
                {INVOICE_STATUSES.filter((s) => s !== invoice.status).map((s) => (
                  <ChoiceCard
                    key={s}
                    name="status"
                    value={s}
                    checked={target === s}
                    onChange={() => setTarget(s)}
                    required
                    label={STATUS_LABELS[s]}
                    description={STATUS_DESCRIPTIONS[s]}
                  />
                ))}
              </fieldset>
              <WebhookNote callbackUrl={invoice.callback_url} />
              {target === "cancelled" && <ReceivedWarning received={received} />}
              <ReasonField {...parts} />
              <StatusChangeFailure problem={outcome.problem} />
              <DialogFooter>
                <Button onClick={() => setChangeOpen(false)} disabled={pending}>
                  Close
                </Button>
                <Button type="submit" variant="primary" loading={pending} disabled={!target}>
                  {pending ? "Saving…" : target ? `Set to ${STATUS_LABELS[target]}` : "Choose a status"}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </div>
      <p role="status" className="text-sm text-success-text">
        {done}
      </p>
    </div>
  );
}

function ReceivedWarning({ received }: { received: string | null }) {
  if (!received) return null;
  return (
    <Notice tone="warning">
      <strong>{received}</strong> has already been received for this invoice. Cancelling does not send it back: arrange any refund
      separately.
    </Notice>
  );
}
