"use client";

import { createContext, type ReactNode, useContext, useId } from "react";
import { cn } from "@/lib/browser/cn";

type FieldContextValue = { id: string; descriptionId?: string; errorId?: string; invalid: boolean };

const FieldContext = createContext<FieldContextValue | null>(null);

type FieldProps = {
  label: ReactNode;
  /** Help shown under the control and read with it. */
  description?: ReactNode;
  /** The field's error; sets aria-invalid on the control and is read with it. */
  error?: ReactNode;
  /** The control's id, when something else (a test, a skip link) needs to know it. */
  id?: string;
  /** Visually hide the label but keep it as the control's name (a table's compact filter). */
  hideLabel?: boolean;
  className?: string;
  /** One control: Input, Textarea, Select or Checkbox, which pick up the wiring by themselves. */
  children: ReactNode;
};

/**
 * Label, control, description and error, wired together: the label names the control, and the description
 * and the error are announced with it through aria-describedby; an error marks it aria-invalid.
 */
export function Field({ label, description, error, id, hideLabel, className, children }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const value: FieldContextValue = {
    id: controlId,
    descriptionId: description ? `${controlId}-description` : undefined,
    errorId: error ? `${controlId}-error` : undefined,
    invalid: Boolean(error),
  };
  return (
    <FieldContext.Provider value={value}>
      <div className={cn("flex flex-col gap-1", className)}>
        <label htmlFor={controlId} className={cn("text-xs font-medium text-muted-foreground", hideLabel && "sr-only")}>
          {label}
        </label>
        {children}
        {description && (
          <p id={value.descriptionId} className="text-xs text-muted-foreground">
            {description}
          </p>
        )}
        {error && (
          <p id={value.errorId} className="text-xs font-medium text-danger-text">
            {error}
          </p>
        )}
      </div>
    </FieldContext.Provider>
  );
}

/**
 * What a control inside a <Field> must carry. Outside a Field it returns nothing, so a bare control keeps
 * the attributes it was given; inside, the control's own aria-describedby is kept and extended.
 */
export function useFieldControl(own: { id?: string; "aria-describedby"?: string; "aria-invalid"?: unknown }) {
  const field = useContext(FieldContext);
  if (!field) return {};
  const describedBy = [own["aria-describedby"], field.descriptionId, field.errorId].filter(Boolean).join(" ");
  return {
    id: own.id ?? field.id,
    "aria-describedby": describedBy || undefined,
    "aria-invalid": field.invalid ? true : (own["aria-invalid"] as boolean | undefined),
  };
}
