"use client";

import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { InvoiceStatus } from "@/lib/contract/status";
import { STATUS_LABELS } from "@/lib/contract/status";
import type { TransitionOffer } from "@/lib/contract/transition-policy";
import { ChangeSummary, type ChangingInvoice, StatusChangeFields } from "./status-change-parts";

/*
 * The status change's two dialogs (status-change.tsx holds their state and the change itself), in a module of
 * their own: they load after the page, not with it.
 */

type Reason = ComponentProps<typeof StatusChangeFields>["reason"];
type Common = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes back when the dialog closes (the trigger, or the control that stays). */
  onCloseAutoFocus: () => void;
  order: string;
  from: string;
  invoice: ChangingInvoice;
  reason: Reason;
};

/** "Cancel invoice": a confirmation that takes the reason. */
export function CancelInvoiceDialog(props: Common & { offer: TransitionOffer; onConfirm: () => Promise<boolean> }) {
  return (
    <ConfirmDialog
      tone="danger"
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={
        <>
          Cancel invoice for order <span className="whitespace-nowrap">{props.order}?</span>
        </>
      }
      description={<ChangeSummary from={props.from} to="cancelled" />}
      confirmLabel={props.offer.approval ? "Ask for approval" : "Cancel invoice"}
      pendingLabel={props.offer.approval ? "Asking…" : "Cancelling…"}
      cancelLabel="Keep invoice"
      onOpenAutoFocus={(event) => {
        // The reason is required: start there, not on "Keep invoice".
        event.preventDefault();
        props.reason.reasonRef?.current?.focus();
      }}
      onCloseAutoFocus={(event) => {
        // Back to the trigger; once cancelled, "Cancel invoice" goes away: focus lands on the control that stays.
        event.preventDefault();
        props.onCloseAutoFocus();
      }}
      onConfirm={props.onConfirm}
    >
      <StatusChangeFields invoice={props.invoice} offer={props.offer} reason={props.reason} />
    </ConfirmDialog>
  );
}

/** "Change status…": pick any other status the policy offers, with the reason. */
export function ChangeStatusDialog(
  props: Common & {
    submit: () => void;
    pending: boolean;
    target: InvoiceStatus | null;
    setTarget: (status: InvoiceStatus) => void;
    offers: TransitionOffer[];
    chosenOffer: TransitionOffer | null;
    close: () => void;
  },
) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent
        showClose={false}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          props.onCloseAutoFocus();
        }}
      >
        <form className="flex flex-col gap-4" action={props.submit}>
          <DialogHeader>
            <DialogTitle>
              Change the status of order <span className="whitespace-nowrap">{props.order}</span>
            </DialogTitle>
            <DialogDescription>
              <ChangeSummary from={props.from} to={props.target} />
            </DialogDescription>
          </DialogHeader>
          <StatusChangeFields
            invoice={props.invoice}
            choice={{ offers: props.offers, chosen: props.target, onChoose: props.setTarget }}
            offer={props.chosenOffer}
            reason={props.reason}
          />
          {/* Kept in view at the dialog's foot: six statuses and their words can outgrow a laptop's window. */}
          <DialogFooter className="sticky -bottom-6 -mx-6 -mb-6 border-t border-border bg-popover px-6 py-4">
            <Button onClick={props.close} disabled={props.pending}>
              Close
            </Button>
            <Button type="submit" variant="primary" loading={props.pending} disabled={!props.target}>
              {props.pending
                ? "Saving…"
                : !props.target
                  ? "Choose a status"
                  : props.chosenOffer?.approval
                    ? `Ask to set to ${STATUS_LABELS[props.target]}`
                    : `Set to ${STATUS_LABELS[props.target]}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
