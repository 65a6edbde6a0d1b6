"use client";

import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { startBulkRedeliverAction } from "@/lib/console/webhooks/actions";
import type { DeliveryView } from "@/lib/contract";

/** "Resend all failed in this view": a plain form naming the view, so it works before scripts load and without them. */
export function BulkResendForm({ view, count }: { view: DeliveryView; count: number }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(startBulkRedeliverAction, {});
  return (
    <form action={action} onSubmit={onSubmit} className="flex flex-col items-start gap-2">
      <DrawnForField />
      {view.invoice && <input type="hidden" name="invoice" value={view.invoice} />}
      {view.from && <input type="hidden" name="from" value={view.from} />}
      {view.to && <input type="hidden" name="to" value={view.to} />}
      <Button type="submit" variant="primary" loading={pending}>
        Resend all {count} failed in this view
      </Button>
      <ActionOutcome state={state} />
    </form>
  );
}
