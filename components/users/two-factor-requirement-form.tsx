"use client";

import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { setTwoFactorRequirementAction } from "@/lib/console/users/actions";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/contract/roles";

/**
 * Which roles sign in with an authenticator app: someone in such a role without one is sent to set it up right
 * after their password, and can do nothing else until then. Overrides TWO_FACTOR_REQUIRED_ROLES.
 */
export function TwoFactorRequirementForm({ required, chosen }: { required: Role[]; chosen: boolean }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(setTwoFactorRequirementAction, {});
  return (
    <Card className="self-start">
      <CardHeader>
        <CardTitle>Second factor</CardTitle>
        <CardDescription>
          Roles that sign in with an authenticator app.{" "}
          {chosen ? "Chosen here." : "The server's default (TWO_FACTOR_REQUIRED_ROLES) until saved here."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form action={action} onSubmit={onSubmit} className="flex flex-col gap-3">
          <DrawnForField />
          <ActionOutcome state={state} />
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">Required for</legend>
            {ROLES.map((role) => (
              <div key={role} className="flex items-center gap-2 text-sm">
                <Checkbox id={`two-factor-${role}`} name={`required.${role}`} defaultChecked={required.includes(role)} />
                <label htmlFor={`two-factor-${role}`}>{ROLE_LABELS[role]}</label>
              </div>
            ))}
          </fieldset>
          <Button type="submit" loading={pending}>
            {pending ? "Saving…" : "Save"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
