"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { actionProblem, useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { decideApprovalAction } from "@/lib/console/approvals/actions";
import type { ActionState } from "@/lib/console/bff/action";
import { REASON_MAX } from "@/lib/contract/list-query";
import { problemSentence } from "@/lib/contract/problem";

/**
 * Approve or reject someone else's request, or withdraw one's own: one plain form whose pressed button is the
 * decision, so it works before scripts load and without them. Every decision says why; once decided, the page
 * says what became of it (decided-notice.tsx).
 */
export function DecisionForm({
  id,
  own,
  mayDecide,
  label,
  invoiceChanged = false,
}: {
  id: string;
  own: boolean;
  mayDecide: boolean;
  label: string;
  /** The invoice left the status the change was asked from (as last read): the request can only be closed. */
  invoiceChanged?: boolean;
}) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(decideApprovalAction, {});
  // A refusal in full: the console's or the provider's own words, and what it said of each field.
  const problem = actionProblem(state);
  const refusal = problem
    ? [problemSentence(problem), ...(problem.errors ?? []).filter((e) => e.pointer !== "/reason").map((e) => e.detail)].join(" ")
    : state.error;
  return (
    <form key={state.answeredAt} action={action} onSubmit={onSubmit} className="flex flex-col gap-2">
      <DrawnForField />
      <input type="hidden" name="id" value={id} />
      <Field
        label={own ? "Why withdraw it (required)" : "Your reason (required)"}
        description={own ? undefined : "Kept in the audit log with your name."}
        error={state.fieldErrors?.reason && `The reason ${state.fieldErrors.reason}.`}
        className="[&>label]:text-sm"
      >
        <Textarea name="reason" required maxLength={REASON_MAX} rows={2} defaultValue={state.values?.reason ?? ""} />
      </Field>
      {refusal && !state.fieldErrors?.reason && (
        <p role="alert" className="text-sm text-danger-text">
          {refusal}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {own ? (
          <Button type="submit" name="decision" value="withdraw" loading={pending} aria-label={`Withdraw the request for ${label}`}>
            Withdraw
          </Button>
        ) : (
          mayDecide &&
          (invoiceChanged ? (
            // Declined, so nothing is ever sent, whatever the invoice does meanwhile: the button promises no change.
            <Button type="submit" name="decision" value="reject" variant="secondary" loading={pending}>
              Close it: the invoice changed
            </Button>
          ) : (
            <>
              <Button type="submit" name="decision" value="approve" variant="primary" loading={pending}>
                Approve
              </Button>
              <Button type="submit" name="decision" value="reject" variant="danger" disabled={pending}>
                Reject
              </Button>
            </>
          ))
        )}
      </div>
    </form>
  );
}
