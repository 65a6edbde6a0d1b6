"use client";

import { useRef, useState } from "react";
import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { startBulkRedeliverAction } from "@/lib/console/webhooks/actions";
import type { DeliveryView } from "@/lib/contract";
import { formatCount } from "@/lib/contract/format";

/**
 * "Resend all failed in this view": a plain form naming the view, so it works before scripts load and without
 * them; with script, it asks first, since every receiver gets its webhook again.
 */
export function BulkResendForm({ view, count }: { view: DeliveryView; count: number }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(startBulkRedeliverAction, {});
  const form = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [asking, setAsking] = useState(false);
  const webhooks = `${formatCount(count)} failed webhook${count === 1 ? "" : "s"}`;
  return (
    // The dialog beside the form, not in it: its own form's submit would bubble (through the portal) to this one.
    <>
      <form
        ref={form}
        action={action}
        onSubmit={(event) => {
          if (!confirmed.current) {
            event.preventDefault();
            setAsking(true);
            return;
          }
          confirmed.current = false;
          onSubmit(event);
        }}
        className="flex flex-col items-start gap-2"
      >
        <DrawnForField />
        {view.invoice && <input type="hidden" name="invoice" value={view.invoice} />}
        {view.from && <input type="hidden" name="from" value={view.from} />}
        {view.to && <input type="hidden" name="to" value={view.to} />}
        <Button type="submit" variant="primary" loading={pending}>
          Resend all {formatCount(count)} failed in this view
        </Button>
        <ActionOutcome state={state} />
      </form>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Resend ${webhooks}?`}
        description="Each goes again to the callback URL its invoice names, as the event it was: a receiver that already handled one gets it twice. The deliveries below show what each answers."
        confirmLabel={`Resend ${webhooks}`}
        onConfirm={() => {
          confirmed.current = true;
          form.current?.requestSubmit();
        }}
      />
    </>
  );
}
