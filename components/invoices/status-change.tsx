"use client";

import { useRouter } from "next/navigation";
import { type KeyboardEvent, type MouseEvent, useActionState, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { runAction } from "@/lib/browser/action";
import { changeStatusAction } from "@/lib/console/invoices/actions";
import { invoiceHref } from "@/lib/contract/invoice-href";
import type { Problem } from "@/lib/contract/problem";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";
import type { TransitionOffer } from "@/lib/contract/transition-policy";
import { ChangeForm, ChangeSummary, type ChangingInvoice, StatusChangeFields, statusLabel } from "./status-change-parts";

type Props = {
  /** With what it has received: cancelling does not return it, and the dialogs say so. */
  invoice: ChangingInvoice;
  /** Every other status as the transition policy answers this person: allowed, needing approval, or not (and who may). */
  offers: TransitionOffer[];
  /**
   * The page's query: `change` draws the change as a form (a trigger followed before scripts load, or without
   * them), with `status` and `reason` as a draft kept through sign-in; `changed` says what the form changed.
   */
  query?: Record<string, string | string[] | undefined>;
};

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The last change this control made since a dialog opened: none yet, done, or refused with a problem. */
type Outcome = { done: boolean; problem: Problem | null };
const NONE: Outcome = { done: false, problem: null };

/**
 * Support's control: "Cancel invoice" up front (a confirmation that takes the reason), any other status
 * behind "Change status…" (a dialog to pick it). Both say what will happen, show progress and any failure
 * in plain words, and cannot be dismissed while the change runs. Both run one server action
 * (changeStatusAction: the guard, the use case and the audit trail of PATCH /api/invoices/{id}); the
 * dialogs need script to open, so the action is awaited (lib/browser/action.ts, runAction). A session that
 * ended meanwhile is signed in again in place (the console layout's dialog), and the change then completes.
 *
 * Both triggers are links to this page with `?change=`: followed before scripts load or without them, the
 * server draws the same change as a form (ChangeForm, posting to changeStatusFormAction), which comes back
 * with `?changed=`. With scripts a click opens the dialog instead.
 */
export function StatusChange({ invoice, offers, query = {} }: Props) {
  const change = one(query.change);
  const changed = one(query.changed);
  const asked = one(query.asked);
  const cancelLink = useRef<HTMLAnchorElement>(null);
  const changeButton = useRef<HTMLAnchorElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [changeOpen, setChangeOpen] = useState(false);
  const [target, setTarget] = useState<InvoiceStatus | null>(null);
  const [reason, setReason] = useState("");
  // What the dialogs changed here; otherwise what the form without script changed (`?changed=`), also when that
  // form was sent with scripts on and the page only moved to its new query — until a dialog opens: from then
  // on that `?changed=` is old news, never shown again over a later change.
  const [done, setDone] = useState<string | null>(null);
  const [seenChanged, setSeenChanged] = useState<string | null>(null);
  const fromQuery = changed
    ? changed !== seenChanged && `Status is now ${statusLabel(changed)}.`
    : asked && asked !== seenChanged && `Asked for approval to set it to ${statusLabel(asked)}. Nothing changes until someone approves it.`;
  const said = done ?? (fromQuery || null);
  const router = useRouter();

  const [outcome, setOutcome] = useState<Outcome>(NONE);

  /** Changes the status: true when it changed, false when it was refused (the dialog shows why). */
  async function change_(status: InvoiceStatus): Promise<boolean> {
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
    setDone(
      answer.approval
        ? `Asked for approval to set it to ${statusLabel(answer.approval.to_status)}. Nothing changes until someone approves it.`
        : `Status is now ${statusLabel(answer.status ?? null)}.`,
    );
    setChangeOpen(false);
    setCancelOpen(false);
    // The page (header, timeline) is rendered on the server.
    router.refresh();
    return true;
  }
  // The "Change status…" dialog's form; its status is the one picked (a controlled choice).
  const [, submitChange, pending] = useActionState(async () => {
    if (target) await change_(target);
  }, undefined);

  /** A fresh start each time a dialog opens: no old reason, error or outcome. */
  function reset(nextTarget: InvoiceStatus | null) {
    setTarget(nextTarget);
    setReason("");
    setDone(null);
    setSeenChanged(changed ?? asked ?? null);
    setOutcome(NONE);
  }

  const order = invoice.order_id ?? invoice.invoice_id;
  const from = statusLabel(invoice.status);
  const parts = { reason, setReason, problem: outcome.problem, reasonRef };
  const offerOf = (to: InvoiceStatus | null) => offers.find((o) => o.to === to) ?? null;
  const cancelOffer = offerOf("cancelled");
  const chosenOffer = offerOf(target);
  const here = invoiceHref(invoice.invoice_id);

  /** A trigger link with script: opens its dialog in place (Enter and Space, as a button's). */
  const opens = (open: () => void) => ({
    role: "button",
    onClick: (event: MouseEvent) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      open();
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key !== " ") return;
      event.preventDefault();
      open();
    },
  });

  if (change && (change === "status" || (INVOICE_STATUSES as readonly string[]).includes(change)) && change !== invoice.status) {
    return (
      <ChangeForm invoice={invoice} offers={offers} change={change} draft={{ status: one(query.status), reason: one(query.reason) }} />
    );
  }

  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <div className="flex flex-wrap gap-2">
        {cancelOffer?.allowed && (
          <>
            <Button variant="danger" asChild>
              <a
                ref={cancelLink}
                href={`${here}?change=cancelled`}
                {...opens(() => {
                  reset("cancelled");
                  setCancelOpen(true);
                })}
              >
                Cancel invoice
              </a>
            </Button>
            <ConfirmDialog
              tone="danger"
              open={cancelOpen}
              onOpenChange={setCancelOpen}
              title={`Cancel invoice for order ${order}?`}
              description={<ChangeSummary from={from} to="cancelled" />}
              confirmLabel={cancelOffer.approval ? "Ask for approval" : "Cancel invoice"}
              pendingLabel={cancelOffer.approval ? "Asking…" : "Cancelling…"}
              cancelLabel="Keep invoice"
              onOpenAutoFocus={(event) => {
                // The reason is required: start there, not on "Keep invoice".
                event.preventDefault();
                reasonRef.current?.focus();
              }}
              onCloseAutoFocus={(event) => {
                // Back to the trigger; once cancelled, "Cancel invoice" goes away: focus lands on the control that stays.
                event.preventDefault();
                (outcome.done ? changeButton.current : cancelLink.current)?.focus();
              }}
              onConfirm={() => change_("cancelled")}
            >
              <StatusChangeFields invoice={invoice} offer={cancelOffer} reason={parts} />
            </ConfirmDialog>
          </>
        )}
        <Button asChild>
          <a
            ref={changeButton}
            href={`${here}?change=status`}
            {...opens(() => {
              reset(null);
              setChangeOpen(true);
            })}
          >
            Change status…
          </a>
        </Button>
        <Dialog
          open={changeOpen}
          onOpenChange={(open) => {
            // While the change runs its outcome must be seen: Escape and outside clicks wait.
            if (pending) return;
            if (open) reset(null);
            setChangeOpen(open);
          }}
        >
          <DialogContent
            showClose={false}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              changeButton.current?.focus();
            }}
          >
            <form className="flex flex-col gap-4" action={submitChange}>
              <DialogHeader>
                <DialogTitle>Change the status of order {order}</DialogTitle>
                <DialogDescription>
                  <ChangeSummary from={from} to={target} />
                </DialogDescription>
              </DialogHeader>
              <StatusChangeFields
                invoice={invoice}
                choice={{ offers, chosen: target, onChoose: setTarget }}
                offer={chosenOffer}
                reason={parts}
              />
              <DialogFooter>
                <Button onClick={() => setChangeOpen(false)} disabled={pending}>
                  Close
                </Button>
                <Button type="submit" variant="primary" loading={pending} disabled={!target}>
                  {pending
                    ? "Saving…"
                    : !target
                      ? "Choose a status"
                      : chosenOffer?.approval
                        ? `Ask to set to ${STATUS_LABELS[target]}`
                        : `Set to ${STATUS_LABELS[target]}`}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </div>
      <p role="status" className="text-sm text-success-text">
        {said}
      </p>
    </div>
  );
}
