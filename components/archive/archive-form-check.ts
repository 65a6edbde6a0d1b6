import { runAction } from "@/lib/browser/action";
import { recordArchivedAction } from "@/lib/console/invoices/actions";
import { archiveFormSchema, toArchiveRequest } from "@/lib/contract/archive-form-schema";
import type { ArchiveFormValues, FormField } from "@/lib/contract/archive-form-values";
import { stringifyJson } from "@/lib/contract/money-json";

// The archive form's checking and sending, with zod, big.js and lossless-json: loaded after the page, which
// posts to the server until then (recordArchivedFormAction judges it by the same rules).

export type FieldMessages = Partial<Record<FormField, string>>;

/** The first broken rule of each field, as the form shows it. */
export function judgeArchiveForm(values: ArchiveFormValues, timeZone: string): FieldMessages {
  const parsed = archiveFormSchema(timeZone).safeParse(values);
  const messages: FieldMessages = {};
  if (parsed.success) return messages;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]) as FormField;
    messages[field] ??= issue.message;
  }
  return messages;
}

/** One request: the amounts as JSON numbers with exactly the typed digits, never through a float. */
export function sendArchiveForm(values: ArchiveFormValues, timeZone: string) {
  const form = new FormData();
  form.set("request", stringifyJson(toArchiveRequest(values, timeZone)));
  return runAction(recordArchivedAction, form);
}
