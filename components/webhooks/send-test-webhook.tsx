"use client";

import { Send } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { toast } from "@/lib/browser/toast";
import type { ActionState } from "@/lib/console/bff/action";
import { simulateWebhookAction } from "@/lib/console/webhooks/actions";
import type { WebhookSimulationResult } from "@/lib/contract";
import { problemDetail } from "@/lib/contract/problem";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";

/** What simulateWebhookAction answers: the provider's answer, or a failure. */
export type SimulationState = ActionState & { result?: WebhookSimulationResult };

/** The status a test webhook announces unless one is chosen: the invoice's own, else completed. */
export function announcedByDefault(status: string | null | undefined): InvoiceStatus {
  return INVOICE_STATUSES.find((s) => s === status) ?? "completed";
}

/**
 * An admin's "Send test webhook" on an invoice: the status it announces (the invoice's own by default), sent
 * through the provider's simulation (a form with the server action simulateWebhookAction), and the timeline
 * refreshed with the attempt.
 */
export function SendTestWebhook({ invoiceId, status, hasCallback }: { invoiceId: string; status: string | null; hasCallback: boolean }) {
  const [target, setTarget] = useState<InvoiceStatus>(announcedByDefault(status));
  const selectId = useId();
  const router = useRouter();
  const { action, onSubmit, pending } = useFormAction<SimulationState>(
    simulateWebhookAction,
    {},
    {
      ok: ({ result }) => {
        if (!result) return;
        toast.success(`Test webhook sent: ${result.status}`, { description: "Its delivery is in the timeline." });
        router.refresh();
      },
      failed: (problem) => toast.error("The test webhook was not sent", { description: problemDetail(problem) }),
    },
  );

  if (!hasCallback)
    return <p className="max-w-64 text-right text-xs text-muted-foreground">No callback URL: this invoice sends no webhooks.</p>;
  return (
    <form action={action} onSubmit={onSubmit} className="flex flex-wrap items-center justify-end gap-2">
      <DrawnForField />
      <input type="hidden" name="invoice_id" value={invoiceId} />
      {/* Said in words beside it: this sends a signed test webhook, it does not change the invoice's status. */}
      <label htmlFor={selectId} className="text-xs text-muted-foreground">
        Test webhook announcing
      </label>
      <Select
        id={selectId}
        size="sm"
        name="status"
        value={target}
        onChange={(event) => setTarget(event.target.value as InvoiceStatus)}
        options={INVOICE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
      />
      <Button type="submit" size="sm" loading={pending}>
        <Send aria-hidden /> Send test webhook
      </Button>
      <Link href={`/webhooks?invoice=${encodeURIComponent(invoiceId)}`} className="text-xs font-medium text-primary hover:underline">
        Open the inbox
      </Link>
    </form>
  );
}
