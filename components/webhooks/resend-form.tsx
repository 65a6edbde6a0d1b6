"use client";

import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { redeliverWebhookAction } from "@/lib/console/webhooks/actions";

/**
 * Resend one webhook: a plain form, so it works before scripts load and without them. The provider sends it
 * again now, with the same webhook-id; the page is drawn again with the new attempt.
 */
export function ResendForm({ webhookId, invoiceId }: { webhookId: string; invoiceId: string | null }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(redeliverWebhookAction, {});
  return (
    <form action={action} onSubmit={onSubmit} className="flex flex-col items-start gap-2">
      <DrawnForField />
      <input type="hidden" name="webhook_id" value={webhookId} />
      {invoiceId && <input type="hidden" name="invoice_id" value={invoiceId} />}
      <Button type="submit" size="sm" loading={pending} aria-label={`Resend webhook ${webhookId}`}>
        Resend
      </Button>
      <ActionOutcome state={state} />
    </form>
  );
}
