import type { Metadata } from "next";
import Link from "next/link";
import { ApprovalCard } from "@/components/approvals/approval-card";
import { DecidedNotice } from "@/components/approvals/decided-notice";
import { EmptyState } from "@/components/ui/empty-state";
import { listApprovals, readApproval, toApproval } from "@/lib/console/approvals/store";
import { guardPage } from "@/lib/console/bff/page";
import { upstream } from "@/lib/console/upstream/client";
import { APPROVAL_STATE_LABELS, APPROVAL_STATES, type ApprovalState } from "@/lib/contract/approvals";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Approvals" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const TAB_LABELS: Record<ApprovalState, string> = {
  ...APPROVAL_STATE_LABELS,
  pending: "Waiting",
  invoice_changed: "Invoice changed",
  requester_changed: "Requester changed",
};

export default async function ApprovalsPage({ searchParams }: Props) {
  const user = await guardPage("invoices:change_status");
  const query = await searchParams;
  const asked = query.state;
  const state = (APPROVAL_STATES as readonly unknown[]).includes(asked) ? (asked as ApprovalState) : "pending";
  const db = await getDatabase();
  const approvals = await listApprovals(db, state);
  const doneRow = typeof query.done === "string" ? await readApproval(db, query.done) : null;
  // The invoice now, beside the invoice as asked: read for the requests still waiting.
  const now = new Map<string, string | null>();
  if (state === "pending") {
    await Promise.all(
      approvals
        .filter((a) => a.invoice_id)
        .map(async (a) =>
          now.set(
            a.id,
            await upstream()
              .getInvoice(a.invoice_id!)
              .then(
                (i) => i.status,
                () => null,
              ),
          ),
        ),
    );
  }
  const mayDecide = can(user.role, "invoices:approve");

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Approvals</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Changes the policy gives a second person to approve. Nothing reaches the payment provider until someone other than the person who
          asked approves it.
        </p>
      </div>
      {doneRow && <DecidedNotice approval={toApproval(doneRow)} />}
      <nav aria-label="Requests by state" className="flex flex-wrap gap-1 text-sm">
        {APPROVAL_STATES.map((s) => (
          <Link
            key={s}
            href={s === "pending" ? "/approvals" : `/approvals?state=${s}`}
            aria-current={s === state ? "page" : undefined}
            className="rounded-md px-3 py-1.5 font-medium text-muted-foreground hover:bg-accent hover:text-accent-foreground aria-[current=page]:bg-accent aria-[current=page]:text-accent-foreground"
          >
            {TAB_LABELS[s]}
          </Link>
        ))}
      </nav>
      {approvals.length === 0 ? (
        <EmptyState
          title={state === "pending" ? "Nothing is waiting for approval" : `No ${TAB_LABELS[state].toLowerCase()} requests`}
          description={
            state === "pending"
              ? "When someone asks for a change the policy gives a second person, it appears here."
              : "Requests move here once they are decided."
          }
        />
      ) : (
        <div className="grid gap-4 xl:grid-cols-2">
          {approvals.map((a) => (
            <ApprovalCard
              key={a.id}
              approval={a}
              statusNow={state === "pending" && a.invoice_id ? (now.get(a.id) ?? null) : undefined}
              own={a.requested_by === user.email}
              mayDecide={mayDecide}
            />
          ))}
        </div>
      )}
    </div>
  );
}
