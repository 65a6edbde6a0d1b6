"use client";

import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { redeliverWebhookAction } from "@/lib/console/webhooks/actions";
import { problemDetail } from "@/lib/contract/problem";
import { useResendOutcome } from "./resend-outcome";

/**
 * Resend one webhook: a plain form, so it works before scripts load and without them. The provider sends it
 * again now, with the same webhook-id; the page is drawn again with the new attempt. Its answer is said here,
 * and to the page (./resend-outcome.tsx), which says it once this row is gone.
 */
export function ResendForm({ webhookId, invoiceId }: { webhookId: string; invoiceId: string | null }) {
  const say = useResendOutcome(webhookId);
  // Said as each answer arrives, not after this row draws it: the redrawn page may no longer hold the row.
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(
    redeliverWebhookAction,
    {},
    say ? { ok: (answer) => say({ ok: answer.ok }), failed: (problem) => say({ error: problemDetail(problem) }) } : {},
  );
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
