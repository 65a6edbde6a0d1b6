import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import { ServerDateTime as DateTime } from "@/components/ui/server-date-time";
import type { Approval } from "@/lib/contract/approvals";
import { statusLabel } from "@/lib/contract/status";

const label = (status: string | null) => statusLabel(status, "—");

/** On an invoice's page: a change asked for and not yet approved, so nobody mistakes it for done or asks twice. */
export function WaitingForApproval({ approval, mayDecide }: { approval: Approval; mayDecide: boolean }) {
  return (
    <Notice tone="warning" role="status" data-testid="waiting-for-approval">
      <p className="font-medium">Waiting for approval</p>
      <p className="mt-1 text-sm">
        {approval.requested_by} asked to set this invoice to <strong>{label(approval.to_status)}</strong>: “{approval.reason}”. Nothing is
        sent to the payment provider until someone else approves it; the request expires <DateTime iso={approval.expires_at} />.{" "}
        <Link href="/approvals" className="font-medium underline underline-offset-4">
          {mayDecide ? "Approve or reject it" : "See approvals"}
        </Link>
      </p>
    </Notice>
  );
}
