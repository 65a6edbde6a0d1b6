"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { setTimeZoneAction } from "@/lib/console/users/actions";

/**
 * The person's own time zone (lib/contract/time-zone.ts): the business zone unless they choose another. Saved with
 * their account, so every device and every page counts the same days.
 */
export function TimeZoneForm({ chosen, businessTimeZone, zones }: { chosen: string | null; businessTimeZone: string; zones: string[] }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(setTimeZoneAction, {});
  return (
    // Keyed by the saved zone: a fresh form shows the new choice.
    <form key={chosen ?? ""} action={action} onSubmit={onSubmit} className="flex flex-wrap items-start gap-2">
      <DrawnForField />
      <Field
        label="Time zone"
        className="w-full max-w-md"
        error={state.fieldErrors?.time_zone ?? state.error}
        description={`Decides what a day is for you (the table's date filters, the overview, export names, the archive form) and the zone every time is shown in. The business time zone is ${businessTimeZone}.`}
      >
        <Select
          name="time_zone"
          defaultValue={chosen ?? ""}
          className="w-full"
          options={[{ value: "", label: `Business time zone (${businessTimeZone})` }, ...zones.map((z) => ({ value: z, label: z }))]}
        />
      </Field>
      {/* Beside the select, not its description: a label's height down. */}
      <Button type="submit" loading={pending} className="mt-5">
        {pending ? "Saving…" : "Save"}
      </Button>
      {state.ok && (
        <p role="status" className="basis-full text-sm text-success-text">
          {state.ok}
        </p>
      )}
    </form>
  );
}
