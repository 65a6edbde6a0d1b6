// POST /archived's plain limits, apart from its schema: the archive form draws them before zod loads.

/** The sandbox's `allowed_error_percent` when a request omits it (ARCHITECTURE.md §3); the OpenAPI document and the form say so. */
export const ALLOWED_ERROR_PERCENT_DEFAULT = 1;
export const ORDER_ID_MAX = 200;
export const ORDER_NAME_MAX = 500;
