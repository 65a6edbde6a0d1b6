"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { decideApprovalAction } from "@/lib/console/approvals/actions";
import type { ActionState } from "@/lib/console/bff/action";
import { REASON_MAX } from "@/lib/contract/list-query";

/**
 * Approve or reject someone else's request, or withdraw one's own: one plain form whose pressed button is the
 * decision, so it works before scripts load and without them. Every decision says why.
 */
export function DecisionForm({ id, own, mayDecide, label }: { id: string; own: boolean; mayDecide: boolean; label: string }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(decideApprovalAction, {});
  if (state.ok) {
    return (
      <p role="status" className="text-sm font-medium text-success-text">
        {state.ok}
      </p>
    );
  }
  return (
    <form key={state.answeredAt} action={action} onSubmit={onSubmit} className="flex flex-col gap-2">
      <DrawnForField />
      <input type="hidden" name="id" value={id} />
      <Field
        label={own ? "Why withdraw it" : "Your reason"}
        description={own ? undefined : "Kept in the audit log with your name."}
        error={state.fieldErrors?.reason && `The reason ${state.fieldErrors.reason}.`}
        className="[&>label]:text-sm"
      >
        <Textarea name="reason" required maxLength={REASON_MAX} rows={2} defaultValue={state.values?.reason ?? ""} />
      </Field>
      {state.error && !state.fieldErrors?.reason && (
        <p role="alert" className="text-sm text-danger-text">
          {state.error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {own ? (
          <Button type="submit" name="decision" value="withdraw" loading={pending} aria-label={`Withdraw the request for ${label}`}>
            Withdraw
          </Button>
        ) : (
          mayDecide && (
            <>
              <Button type="submit" name="decision" value="approve" variant="primary" loading={pending}>
                Approve
              </Button>
              <Button type="submit" name="decision" value="reject" variant="danger" disabled={pending}>
                Reject
              </Button>
            </>
          )
        )}
      </div>
    </form>
  );
}
