import { createLoader } from "nuqs/server";
import { z } from "zod";
import { hasBidiControl, NO_BIDI_CONTROLS } from "./bidi";
import { type InvoiceListState, invoiceListParsers, serializeInvoiceListState, toListQuery } from "./invoice-list-state";
import { invoiceViewQuerySchema, statusListSchema } from "./invoice-view";
import { invoiceListQueryToSearchParams, searchParamsToObject, VIEW_QUERY_MAX } from "./list-query";
import { SAVED_VIEW_NAME_MAX, SAVED_VIEW_QUERY_MAX } from "./saved-view";

export const savedViewNameSchema = z
  .string()
  .transform((value) => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim())
  .pipe(
    z
      .string()
      .min(1, { error: "must not be empty" })
      .max(SAVED_VIEW_NAME_MAX, { error: `must be at most ${SAVED_VIEW_NAME_MAX} characters` })
      .refine((name) => !hasBidiControl(name), { error: NO_BIDI_CONTROLS }),
  );

const loadListState = createLoader(invoiceListParsers);
const KEYS = Object.keys(invoiceListParsers);

/**
 * A list query string ("?status=pending,paid_partial&page=3&q=A-1") → its canonical form without "?" and
 * without `page` ("status=pending,paid_partial&q=A-1"): read with the list's own parsers, every value checked
 * (an unknown parameter or a value the list would ignore is refused, not silently saved as another view), then
 * the view it gives checked against the view query's schema, and written back with defaults left out.
 */
export const savedViewQuerySchema = z
  .string()
  .max(SAVED_VIEW_QUERY_MAX, { error: `must be at most ${SAVED_VIEW_QUERY_MAX} characters` })
  .transform((raw, ctx) => {
    const params = new URLSearchParams(raw.trim().replace(/^\?/, ""));
    params.delete("page");
    for (const key of new Set(params.keys())) {
      if (!KEYS.includes(key)) {
        ctx.addIssue({ code: "custom", message: `has ${JSON.stringify(key)}, which the invoice list does not know` });
        return z.NEVER;
      }
      if (params.getAll(key).length > 1) {
        ctx.addIssue({ code: "custom", message: `names ${JSON.stringify(key)} more than once` });
        return z.NEVER;
      }
    }
    const status = params.get("status");
    if (status !== null) {
      const parsed = statusListSchema.safeParse(status);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: `status ${parsed.error.issues[0]?.message ?? "is not valid"}` });
        return z.NEVER;
      }
    }
    let state: InvoiceListState;
    try {
      state = loadListState(params, { strict: true });
    } catch {
      const bad = KEYS.find((key) => params.has(key) && key !== "status" && !validSingle(key, params));
      ctx.addIssue({ code: "custom", message: `has a value the invoice list cannot read${bad ? ` for ${JSON.stringify(bad)}` : ""}` });
      return z.NEVER;
    }
    if ((state.q?.trim().length ?? 0) > VIEW_QUERY_MAX) {
      ctx.addIssue({ code: "custom", message: `q must be at most ${VIEW_QUERY_MAX} characters` });
      return z.NEVER;
    }
    const view = invoiceViewQuerySchema.safeParse(searchParamsToObject(invoiceListQueryToSearchParams(toListQuery(state, "UTC"))));
    if (!view.success) {
      const issue = view.error.issues[0];
      ctx.addIssue({ code: "custom", message: `${issue?.path.join(".") || "view"} ${issue?.message ?? "is not valid"}` });
      return z.NEVER;
    }
    return serializeInvoiceListState({ ...state, page: null }).replace(/^\?/, "");
  });

function validSingle(key: string, params: URLSearchParams): boolean {
  try {
    loadListState(new URLSearchParams([[key, params.get(key) ?? ""]]), { strict: true });
    return true;
  } catch {
    return false;
  }
}

/** The "Save view" form. */
export const saveViewSchema = z.object({
  name: savedViewNameSchema,
  query: savedViewQuerySchema,
  /** For whom: only the person saving it, or everyone in the team. */
  scope: z.enum(["mine", "team"], { error: "choose “Only me” or “The team”" }),
});
export type SaveViewInput = z.input<typeof saveViewSchema>;

const savedViewId = z.uuid({ error: "is not a saved view's id" });
export const removeViewSchema = z.object({ id: savedViewId });
export const renameViewSchema = z.object({ id: savedViewId, name: savedViewNameSchema });
export type RenameViewInput = z.input<typeof renameViewSchema>;
