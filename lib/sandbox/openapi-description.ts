import { ALLOWED_ERROR_PERCENT_DEFAULT } from "../contract/archived-request";

// The OpenAPI document's introduction (./openapi.ts): what a developer reads first on the API reference page.

export const DESCRIPTION = `The invoicing API of the **Invoice Console sandbox**: a complete implementation of the crypto-payment
invoicing interface, with simulated data and a simulated market. Point your own backend at it like a local copy of
your payment provider.

**Authentication.** Every endpoint needs an \`Api-key\` header, except this document (\`GET /openapi.json\`).
The sandbox's well-known test keys (one with full access, one read-only, one of another merchant) are
listed in the console's README. A missing or unknown key is a 401; a key without the scope an
operation needs (a read-only key sending a change), or another merchant's invoice, is a 403.

**Ids.** Invoice ids are \`invoice_<uuid v7>\`, time-ordered; paths accept the bare UUID too. An unknown or
malformed id is a 404.

**Statuses.** The spec's six (\`new\`, \`pending\`, \`completed\`, \`expired\`, \`cancelled\`, \`paid_partial\`) plus
\`archived\`, which only \`POST /archived\` creates. PATCH accepts the six from any status, except that an
archived invoice cannot be changed.

**Dates.** Stored and returned as UTC ISO 8601 (\`2026-01-31T12:00:00.000Z\`). Inputs accept a date
(\`2026-01-31\`, midnight UTC) or a date-time with an offset.

**Errors.** RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\` and a stable \`code\`; a
400 is a body that is not JSON or not an object, a 415 a body not sent as \`application/json\` (a charset is
fine), a 422 a field (or query parameter) that breaks a rule, an unknown field included, each named in
\`errors[]\` by a JSON Pointer. A method a path does not answer is a 405 with \`Allow\`; a body over the server's
limit a 413.

**Archived invoices.** \`allowed_error_percent\` defaults to **${ALLOWED_ERROR_PERCENT_DEFAULT}** when omitted. Give
exactly one of \`fiat_amount\` and \`crypto_amount\`; the other is derived at the simulated market's rate at the
invoice's \`created_at\`, which is recorded as \`payment.rate\` (and \`priced_in\` says which amount was given): EUR to the cent,
crypto to min(\`decimals\`, 8) places, half up. Seeded archived invoices record theirs the same way (\`priced_in: fiat\`). Archived invoices never send webhooks.

**Rates are simulated.** \`GET /rates\` quotes EUR per one unit of each currency from a simulated market: a
deterministic walk around realistic levels that is the same for everyone within one UTC minute and moves from one
minute to the next. It is not a live price. Seeded invoices were priced on the same market.

**Rate limits.** \`GET /rates\` is limited per API key (60 requests a minute by default, \`SANDBOX_RATES_LIMIT\`),
counted in fixed one-minute windows shared by every sandbox instance. Every answer carries the IETF draft headers
\`RateLimit-Policy\` and \`RateLimit\` (components below); over the limit it answers 429 with \`Retry-After\`.

**Webhooks.** When PATCH changes the status of an invoice with a \`callback_url\`, a Standard Webhooks message
\`invoice.status_changed\` is POSTed to it, signed with the merchant's \`whsec_…\` secret and retried on a
schedule until a 2xx.`;
