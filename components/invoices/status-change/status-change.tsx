"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { type KeyboardEvent, type MouseEvent, useActionState, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { runAction } from "@/lib/browser/action";
import { changeStatusAction } from "@/lib/console/invoices/actions";
import { invoiceHref } from "@/lib/contract/invoice-href";
import type { Problem } from "@/lib/contract/problem";
import { INVOICE_STATUSES, type InvoiceStatus, statusLabel } from "@/lib/contract/status";
import type { TransitionOffer } from "@/lib/contract/transition-policy";
import type { ChangingInvoice } from "./status-change-parts";

// The dialogs load after the page, and the no-script form only when the page draws it: until then (and without
// script) the triggers are links to that form, so the page's first load is its content.
const dialogs = () => import("./status-change-dialogs");
const CancelInvoiceDialog = dynamic(() => dialogs().then((m) => m.CancelInvoiceDialog), { ssr: false });
const ChangeStatusDialog = dynamic(() => dialogs().then((m) => m.ChangeStatusDialog), { ssr: false });
const ChangeForm = dynamic(() => import("./status-change-parts").then((m) => m.ChangeForm));

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
            <CancelInvoiceDialog
              open={cancelOpen}
              onOpenChange={setCancelOpen}
              order={order}
              from={from}
              offer={cancelOffer}
              invoice={invoice}
              reason={parts}
              onCloseAutoFocus={() => (outcome.done ? changeButton.current : cancelLink.current)?.focus()}
              onConfirm={() => change_("cancelled")}
            />
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
        <ChangeStatusDialog
          open={changeOpen}
          onOpenChange={(open) => {
            // While the change runs its outcome must be seen: Escape and outside clicks wait.
            if (pending) return;
            if (open) reset(null);
            setChangeOpen(open);
          }}
          onCloseAutoFocus={() => changeButton.current?.focus()}
          submit={submitChange}
          pending={pending}
          order={order}
          from={from}
          target={target}
          setTarget={setTarget}
          invoice={invoice}
          offers={offers}
          chosenOffer={chosenOffer}
          reason={parts}
          close={() => setChangeOpen(false)}
        />
      </div>
      <p role="status" className="text-sm text-success-text">
        {said}
      </p>
    </div>
  );
}
