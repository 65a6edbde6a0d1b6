import "server-only";
import { parseJson } from "@/lib/contract/parse-json";
import type { FieldError } from "@/lib/contract/problem";

/*
 * The spec does not show an error body (§7), so a provider's refusal comes in whatever shape its framework
 * writes. Read here into what a person needs: the provider's own message, and the field it is about as a
 * JSON pointer, so the console shows it on the right field.
 */

export type ErrorBody = { message: string | null; errors: FieldError[]; code?: string };

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value.trim() : null);

/** Where a request's own parts sit in framework locations (`["body", "status"]`): not part of the field. */
const LOCATIONS = new Set(["body", "query", "path", "params", "header", "headers", "data", "request"]);

/**
 * A field's name in any of the usual spellings → a JSON pointer: `status`, `/status`, `#/status`,
 * `body.status`, `["body", "status"]`, `items[0].amount`.
 */
export function toPointer(field: unknown): string | null {
  let parts: string[];
  if (Array.isArray(field)) parts = field.map((p) => String(p));
  else if (typeof field === "string" && field.trim()) {
    const f = field.trim().replace(/^#/, "");
    parts = f.startsWith("/") ? f.slice(1).split("/") : f.replace(/\[(\w+)\]/g, ".$1").split(".");
  } else return null;
  while (parts.length > 1 && LOCATIONS.has(parts[0])) parts = parts.slice(1);
  parts = parts.filter((p) => p !== "");
  return parts.length ? `/${parts.join("/")}` : null;
}

function fieldError(pointer: string | null, detail: string | null, code?: unknown): FieldError | null {
  if (!pointer || !detail) return null;
  return { pointer, detail, ...(typeof code === "string" ? { code } : {}) };
}

/** One entry of an `errors` / `detail` / `invalid-params` array, in any of the common spellings. */
function arrayEntry(entry: unknown): FieldError | null {
  if (!isObject(entry)) return null;
  const pointer = toPointer(
    entry.pointer ??
      entry.loc ??
      entry.field ??
      entry.param ??
      entry.name ??
      entry.path ??
      entry.attribute ??
      (isObject(entry.source) ? (entry.source.pointer ?? entry.source.parameter) : undefined),
  );
  return fieldError(
    pointer,
    text(entry.detail ?? entry.msg ?? entry.message ?? entry.reason ?? entry.title ?? entry.description),
    entry.code ?? entry.type,
  );
}

function fromArray(list: unknown[]): { errors: FieldError[]; messages: string[] } {
  const errors: FieldError[] = [];
  const messages: string[] = [];
  for (const entry of list) {
    const e = arrayEntry(entry);
    if (e) errors.push(e);
    else if (text(entry)) messages.push(text(entry)!);
    else if (isObject(entry)) {
      const m = text(entry.detail ?? entry.msg ?? entry.message ?? entry.title);
      if (m) messages.push(m);
    }
  }
  return { errors, messages };
}

/** `{status: ["is not allowed"], amount: "must be positive"}` (Rails, Laravel, Django REST). */
function fromFieldMap(map: Obj): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(map)) {
    const pointer = toPointer(field);
    const messages = (Array.isArray(value) ? value : [value]).map(
      (v) => text(v) ?? (isObject(v) ? text(v.message ?? v.detail ?? v.msg) : null),
    );
    for (const m of messages) {
      const e = fieldError(pointer, m);
      if (e) errors.push(e);
    }
  }
  return errors;
}

/**
 * The message and field errors of an error body in any common shape: RFC 9457 (with `errors[]` or
 * `invalid-params[]`), `{detail: [{loc, msg, type}]}` (FastAPI), `{detail: "…"}`, `{errors: {field: ["…"]}}`,
 * `{errors: ["…"]}`, `{error: {message, field | param}}` (Stripe), `{error: "…"}`, `{message}`, plain text.
 */
export function readErrorBody(body: string, contentType: string | null): ErrorBody {
  let parsed: unknown;
  try {
    parsed = parseJson(body);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) {
    // Plain text (or an HTML error page: not a message for people).
    const plain = body.trim();
    const html = /html/i.test(contentType ?? "") || /^<(!doctype|html)/i.test(plain);
    return { message: plain && !html ? plain.slice(0, 500) : null, errors: [] };
  }
  if (typeof parsed === "string") return { message: text(parsed), errors: [] };
  if (Array.isArray(parsed)) {
    const { errors, messages } = fromArray(parsed);
    return { message: messages[0] ?? errors[0]?.detail ?? null, errors };
  }
  if (!isObject(parsed)) return { message: null, errors: [] };

  const errors: FieldError[] = [];
  const messages: string[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) {
      const r = fromArray(value);
      errors.push(...r.errors);
      messages.push(...r.messages);
    } else if (isObject(value)) {
      errors.push(...fromFieldMap(value));
    } else if (text(value)) messages.push(text(value)!);
  };

  // {error: {message, field | param}} or {error: "text"}
  const error = parsed.error;
  if (isObject(error)) {
    const e = arrayEntry(error);
    if (e) errors.push(e);
    const m = text(error.message ?? error.detail ?? error.description);
    if (m) messages.push(m);
    if (error.errors) collect(error.errors);
    if (error.details) collect(error.details);
  } else if (text(error)) messages.push(text(error)!);

  // RFC 9457: detail is text; FastAPI: detail is a list.
  if (Array.isArray(parsed.detail)) collect(parsed.detail);
  else if (text(parsed.detail)) messages.push(text(parsed.detail)!);
  if (parsed.errors !== undefined) collect(parsed.errors);
  if (parsed["invalid-params"] !== undefined) collect(parsed["invalid-params"]);
  if (parsed.invalid_params !== undefined) collect(parsed.invalid_params);
  for (const key of ["message", "error_description", "msg"]) if (text(parsed[key])) messages.push(text(parsed[key])!);
  if (!messages.length && text(parsed.title)) messages.push(text(parsed.title)!);

  const code = text(parsed.code) ?? (isObject(error) ? text(error.code) : null);
  return {
    ...(code && /^[a-z][a-z0-9_.-]{0,60}$/i.test(code) ? { code } : {}),
    message: messages[0] ?? (errors.length ? errors.map((e) => `${e.pointer.slice(1)}: ${e.detail}`).join("; ") : null),
    errors,
  };
}
