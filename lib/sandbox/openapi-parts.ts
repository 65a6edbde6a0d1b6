import { z } from "zod";
import type { ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../contract/list-query";
import { apiProblemSchema } from "./wire-schemas";

/*
 * The parts every operation of the sandbox's OpenAPI document (./openapi.ts) is made of: problem answers with
 * their examples, the answers the server gives on every route (405, 413, 415), and the query parameters as the
 * server reads them. Isomorphic, like the document.
 */

export const INVOICE_ID_EXAMPLE = "invoice_0193f0d2-7c1a-7b3e-9f10-2a4c6e8b0d12";

export const problem = (
  status: number,
  code: string,
  title: string,
  detail: string,
  errors?: { pointer: string; code: string; detail: string }[],
) => ({
  type: `urn:invoice-console:problem:${code}`,
  title,
  status,
  detail,
  code,
  ...(errors ? { errors } : {}),
});

/** A problem answer for `status`, with one example. */
export const problemResponse = (description: string, example: ReturnType<typeof problem>) => ({
  description,
  content: { "application/problem+json": { schema: apiProblemSchema, example } },
});

export const unauthorized = problemResponse(
  "Missing or unknown `Api-key` header.",
  problem(401, "unauthorized", "Missing or unknown API key", "Send your key in the Api-key header."),
);
export const forbiddenScope = problemResponse(
  "The key is valid but lacks the scope (a read-only key sending a change), or the invoice belongs to another merchant.",
  problem(403, "insufficient_scope", "This API key may not do that", "The key lacks the invoices:write scope."),
);
export const otherMerchant = problemResponse(
  "The invoice belongs to another merchant.",
  problem(403, "other_merchant", "This invoice belongs to another merchant", "The API key's merchant does not own this invoice."),
);
export const notFound = problemResponse(
  "No invoice has this id: unknown or malformed ids alike.",
  problem(404, "not_found", "Not found", `No invoice has the id "invoice_nope".`),
);
export const badBody = problemResponse(
  "The body is not JSON, or not a JSON object.",
  problem(400, "invalid_body", "The request body cannot be read", "The body is not valid JSON."),
);
export const serverError = problemResponse(
  "Something failed on the sandbox's side; the error was logged.",
  problem(
    500,
    "internal_error",
    "Something went wrong on our side",
    "The error was logged. Try again; if it keeps happening, contact support.",
  ),
);
const methodNotAllowed = problemResponse(
  "The path does not answer this method; the `Allow` header lists those it does.",
  problem(405, "method_not_allowed", "Method not allowed", "DELETE is not answered here. Use GET, PATCH, OPTIONS."),
);
const bodyTooLarge = problemResponse(
  "The body is larger than the server reads (`REQUEST_MAX_BODY_BYTES`, 1 MiB by default); refused before it is read.",
  problem(413, "body_too_large", "The request body is too large", "A request body may be at most 1048576 bytes."),
);
const unsupportedMediaType = problemResponse(
  "The body was not sent as `application/json` (with or without a charset), or without a `Content-Type`.",
  problem(
    415,
    "unsupported_media_type",
    "The request body must be JSON",
    "A body sent as text/plain is not read: send it as application/json.",
  ),
);

export const invoiceId = z.string().meta({
  description: "The invoice's id: `invoice_<uuid v7>` (time-ordered). The bare UUID is accepted too. An unknown or malformed id is a 404.",
  example: INVOICE_ID_EXAMPLE,
});

export const json = <T extends z.ZodType>(schema: T, example: unknown) => ({ "application/json": { schema, example } });

/**
 * A date or a date-time as the server reads one in a query: `YYYY-MM-DD` (midnight UTC) or an ISO 8601
 * date-time with an offset, years 0001–9999. The parsing schema is a string pipeline the generator cannot see into.
 */
export const dateForms = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** `page` and `page_size` as the server reads them: whole numbers, with the list's bounds and defaults. */
export const pagingQuery = {
  page: z.int().min(1).default(1).meta({ description: "A whole number from 1 up; default 1. A page past the end is an empty list." }),
  page_size: z
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX)
    .default(PAGE_SIZE_DEFAULT)
    .meta({ description: `A whole number from 1 to ${PAGE_SIZE_MAX}; default ${PAGE_SIZE_DEFAULT}.` }),
};

/** The description a query schema's parameter carries, so the document's copy says the same as the parser's. */
export const describedAs = (schema: z.ZodType) => ({ description: (schema.meta()?.description as string | undefined) ?? "" });

/**
 * The answers every operation can give besides its own: 405 for a method the path does not answer, and for
 * one with a body, 413 (too large, from the server layer) and 415 (not sent as JSON).
 */
export function withCommonAnswers(paths: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  for (const item of Object.values(paths)) {
    for (const method of ["get", "post", "patch", "put", "delete"] as const) {
      const operation = item[method];
      if (!operation) continue;
      const responses: ZodOpenApiResponsesObject = { ...operation.responses, 405: methodNotAllowed };
      if (operation.requestBody) Object.assign(responses, { 413: bodyTooLarge, 415: unsupportedMediaType });
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return paths;
}

/**
 * Drops the bounds the generator writes for every integer without its own (±2^53 − 1, JavaScript's safe
 * range): the server states no such limit, and tools read them as one.
 */
export function withoutSafeIntegerBounds<T>(node: T): T {
  if (Array.isArray(node)) for (const item of node) withoutSafeIntegerBounds(item);
  else if (node && typeof node === "object") {
    const record = node as Record<string, unknown>;
    if (record.minimum === -Number.MAX_SAFE_INTEGER) delete record.minimum;
    if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
    for (const value of Object.values(record)) withoutSafeIntegerBounds(value);
  }
  return node;
}
