"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ChoiceCard } from "@/components/ui/choice-card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";
import { fetchJson } from "@/lib/browser/query/fetch-json";
import { invoiceKeys } from "@/lib/browser/query/invoices";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_DESCRIPTIONS, STATUS_LABELS } from "@/lib/contract/status";
import { invoiceApiPath } from "./invoice-href";
import { ChangeSummary, ReasonField, StatusChangeFailure, statusLabel, WebhookNote } from "./status-change-parts";

type Props = {
  invoice: { invoice_id: string; status: string | null; order_id: string | null; callback_url?: string | null };
  /** Crypto already received for this invoice, formatted; cancelling does not return it. */
  received: string | null;
};

/**
 * Support's control: "Cancel invoice" up front (a confirmation that takes the reason), any other status
 * behind "Change status…" (a dialog to pick it). Both say what will happen, show progress and any failure
 * in plain words, and cannot be dismissed while the change runs.
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

  const change = useMutation({
    mutationFn: (status: InvoiceStatus) =>
      fetchJson(invoiceApiPath(invoice.invoice_id), (c) => c.invoiceSchema, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status, reason }),
      }),
    onSuccess: async (updated) => {
      setDone(`Status is now ${statusLabel(updated.status)}.`);
      setChangeOpen(false);
      // The page (header, timeline) is rendered on the server; lists are cached in the browser.
      router.refresh();
      await queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    },
  });

  /** A fresh start each time a dialog opens: no old reason, error or outcome. */
  function reset(nextTarget: InvoiceStatus | null) {
    setTarget(nextTarget);
    setReason("");
    setDone(null);
    change.reset();
  }

  const order = invoice.order_id ?? invoice.invoice_id;
  const from = statusLabel(invoice.status);
  const parts = { reason, setReason, required: target === "cancelled", problem: change.error, reasonRef };

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
              if (change.isSuccess) {
                event.preventDefault();
                changeButton.current?.focus();
              }
            }}
            onConfirm={() =>
              change.mutateAsync("cancelled").then(
                () => true,
                () => false,
              )
            }
          >
            <WebhookNote callbackUrl={invoice.callback_url} />
            <ReceivedWarning received={received} />
            <ReasonField {...parts} />
            <StatusChangeFailure problem={change.error} />
          </ConfirmDialog>
        )}
        <Dialog
          open={changeOpen}
          onOpenChange={(open) => {
            // While the change runs its outcome must be seen: Escape and outside clicks wait.
            if (change.isPending) return;
            if (open) reset(null);
            setChangeOpen(open);
          }}
        >
          <DialogTrigger asChild>
            <Button ref={changeButton}>Change status…</Button>
          </DialogTrigger>
          <DialogContent showClose={false}>
            <form
              className="flex flex-col gap-4"
              onSubmit={(event) => {
                event.preventDefault();
                if (target) change.mutate(target);
              }}
            >
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
              <StatusChangeFailure problem={change.error} />
              <DialogFooter>
                <Button onClick={() => setChangeOpen(false)} disabled={change.isPending}>
                  Close
                </Button>
                <Button type="submit" variant="primary" loading={change.isPending} disabled={!target}>
                  {change.isPending ? "Saving…" : target ? `Set to ${STATUS_LABELS[target]}` : "Choose a status"}
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
