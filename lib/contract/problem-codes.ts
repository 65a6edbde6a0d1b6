/**
 * Every problem code the console and the sandbox answer with, and the HTTP status and default title each
 * carries. Clients and tests rely on these strings and statuses: change neither. A thrower names a code
 * (`Problem.of("not_found", …)`) and gets its status; the UI asks `problem.is("forbidden")`, which the
 * compiler checks against this list, instead of comparing raw strings.
 */
export const PROBLEM_CODES = {
  // Requests the console or the sandbox could not take.
  invalid_body: { status: 400, title: "The request body cannot be read" },
  validation_failed: { status: 422, title: "The request is not valid" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  body_too_large: { status: 413, title: "The request body is too large" },
  unsupported_media_type: { status: 415, title: "The request body must be JSON" },
  headers_too_large: { status: 431, title: "Request Header Fields Too Large" },
  request_timeout: { status: 408, title: "The request body took too long" },
  too_many_requests: { status: 429, title: "Too many requests" },
  too_many_exports: { status: 429, title: "Too many exports at once" },
  internal_error: { status: 500, title: "Something went wrong on our side" },
  // Load shed, not queued: a slot did not come free in time; Retry-After says when to ask again.
  overloaded: { status: 503, title: "Busy right now" },
  shutting_down: { status: 503, title: "The console is restarting" },
  // Who asks.
  unauthenticated: { status: 401, title: "Sign in to continue" },
  forbidden: { status: 403, title: "Your role does not allow this" },
  cross_site_request: { status: 403, title: "Request from another site refused" },
  signed_in_as_someone_else: { status: 409, title: "Signed in as someone else" },
  second_factor_required: { status: 403, title: "Set up a second factor first" },
  // The transition policy and its approvals (lib/contract/transition-policy.ts).
  transition_not_allowed: { status: 403, title: "This change is not allowed" },
  own_request: { status: 403, title: "You cannot approve your own request" },
  invoice_changed: { status: 409, title: "The invoice changed since the request" },
  requester_changed: { status: 409, title: "The person who asked may no longer ask for this" },
  approval_closed: { status: 409, title: "This request is no longer waiting" },
  approval_waiting: { status: 409, title: "A change of this invoice is already waiting for approval" },
  change_in_progress: { status: 409, title: "Another change of this invoice is being sent" },
  // People.
  user_exists: { status: 409, title: "This email already has an account" },
  last_admin: { status: 409, title: "The last admin cannot lose the role" },
  self: { status: 409, title: "You cannot disable yourself" },
  // A one-time link to choose a password that is unknown, used, expired or its person disabled.
  link_gone: { status: 410, title: "This link no longer works" },
  // The sandbox's own refusals.
  unauthorized: { status: 401, title: "Missing or unknown API key" },
  insufficient_scope: { status: 403, title: "This API key may not do that" },
  other_merchant: { status: 403, title: "This invoice belongs to another merchant" },
  archived_invoice: { status: 422, title: "An archived invoice cannot be changed" },
  // The invoicing API, as the console met it.
  upstream_timeout: { status: 504, title: "The invoicing API did not answer in time" },
  upstream_unreachable: { status: 502, title: "The invoicing API cannot be reached" },
  upstream_not_found: { status: 502, title: "The invoicing API has no such endpoint" },
  upstream_key_rejected: { status: 502, title: "The console's API key was rejected" },
  upstream_rate_limited: { status: 429, title: "Too many requests to the invoicing API" },
  upstream_error: { status: 502, title: "The invoicing API failed" },
  upstream_invalid_response: { status: 502, title: "The invoicing API gave an answer the console does not understand" },
  bad_request: { status: 400, title: "The invoicing API could not read the request" },
  forbidden_upstream: { status: 403, title: "The invoicing API refused access" },
  conflict: { status: 409, title: "The invoicing API refused the change" },
  // The browser's side of the BFF.
  network_error: { status: 0, title: "The console cannot be reached" },
  invalid_response: { status: 502, title: "The console gave an answer this page does not understand" },
  http_error: { status: 500, title: "The request failed" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export function isProblemCode(code: string): code is ProblemCode {
  return Object.hasOwn(PROBLEM_CODES, code);
}
