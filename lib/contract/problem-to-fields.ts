/**
 * Puts a problem's `errors[]` (RFC 9457 with JSON Pointers, ARCHITECTURE.md §3) onto form fields, for any form library:
 * the result is plain data, and `applyFieldErrors` feeds it to a `setError(name, message)` callback
 * (TanStack Form, a useState map…).
 *
 * A pointer names a path in the request body: "/order_id" → "order_id", "/payment/address" →
 * "payment.address", "/items/0/amount" → "items.0.amount" (the dotted names form libraries use).
 */
export type PointerError = { pointer?: string | null; detail?: string | null; code?: string | null };

export type FieldErrors = {
  /** The first message for each field, by dotted field name. */
  fields: Record<string, string>;
  /** Errors that belong to no known field (the whole body, or a field the form does not show). */
  form: string[];
};

type Options = {
  /** The names the form shows. Errors for any other path go to `form`, so none is silently lost. */
  fields?: readonly string[];
};

export function problemToFields(
  problem: { errors?: readonly PointerError[] | null } | null | undefined,
  options: Options = {},
): FieldErrors {
  const result: FieldErrors = { fields: {}, form: [] };
  const known = options.fields ? new Set(options.fields) : null;
  for (const error of problem?.errors ?? []) {
    const detail = error.detail?.trim() || error.code || "is not valid";
    const name = pointerToField(error.pointer);
    if (name === null) {
      result.form.push(detail);
    } else if (known && !known.has(name)) {
      result.form.push(`${name} ${detail}`);
    } else if (!(name in result.fields)) {
      // The first message for a field is the one its rule order puts first; one message a field is readable.
      result.fields[name] = detail;
    }
  }
  return result;
}

/**
 * A JSON Pointer (RFC 6901) as a dotted field name, or null for the whole document. Providers differ: a
 * URI-fragment pointer ("#/order_id") and a bare name ("order_id") are read the same way.
 */
export function pointerToField(pointer: string | null | undefined): string | null {
  if (pointer == null) return null;
  let path = pointer.trim();
  if (path.startsWith("#")) path = decodeURIComponent(path.slice(1));
  if (path === "" || path === "/") return null;
  const segments = (path.startsWith("/") ? path.slice(1) : path)
    .split("/")
    // RFC 6901 escapes: "~1" is "/" and "~0" is "~", decoded in that order.
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  return segments.join(".");
}

/** Hands each field's message to a form library; returns the messages that belong to no field. */
export function applyFieldErrors(errors: FieldErrors, setError: (field: string, message: string) => void): string[] {
  for (const [field, message] of Object.entries(errors.fields)) setError(field, message);
  return errors.form;
}
