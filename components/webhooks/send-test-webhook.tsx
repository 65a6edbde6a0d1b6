"use client";

import { useMutation } from "@tanstack/react-query";
import { Send } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { simulateWebhook } from "@/lib/browser/query/webhooks";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";

/**
 * An admin's "Send test webhook" on an invoice: the status it announces (the invoice's own by default), sent
 * through the provider's simulation, and the timeline refreshed with the attempt.
 */
export function SendTestWebhook({ invoiceId, status, hasCallback }: { invoiceId: string; status: string | null; hasCallback: boolean }) {
  const [target, setTarget] = useState<InvoiceStatus>(INVOICE_STATUSES.find((s) => s === status) ?? "completed");
  const router = useRouter();
  const send = useMutation({
    mutationFn: () => simulateWebhook({ invoice_id: invoiceId, status: target }),
    onSuccess: (result) => {
      toast.success(`Test webhook sent: ${result.status}`, { description: "Its delivery is in the timeline." });
      router.refresh();
    },
    onError: (error) =>
      toast.error("The test webhook was not sent", {
        description: "detail" in error && typeof error.detail === "string" ? error.detail : error.message,
      }),
  });

  if (!hasCallback)
    return <p className="max-w-64 text-right text-xs text-muted-foreground">No callback URL: this invoice sends no webhooks.</p>;
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <Select
        size="sm"
        aria-label="Status the test webhook announces"
        value={target}
        onChange={(event) => setTarget(event.target.value as InvoiceStatus)}
        options={INVOICE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
      />
      <Button size="sm" loading={send.isPending} onClick={() => send.mutate()}>
        <Send aria-hidden /> Send test webhook
      </Button>
      <Link href={`/webhooks?invoice=${encodeURIComponent(invoiceId)}`} className="text-xs font-medium text-primary hover:underline">
        Open the inbox
      </Link>
    </div>
  );
}
