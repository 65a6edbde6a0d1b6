// Plain values and types, without zod: the navigation and the list's toolbar carry them (./saved-view-schema.ts reads forms).

/*
 * Saved views of the invoice list: a name and the list's query string as the URL holds it, without
 * `page`, for one person or for the team. Opening one is the plain URL `/invoices?<query>`.
 */

export const SAVED_VIEW_NAME_MAX = 80;
/** How many views one person may keep (their own and the ones they shared with the team). */
export const SAVED_VIEWS_PER_PERSON = 50;
/** A query string longer than any the toolbar makes (the text search alone is at most 200 characters). */
export const SAVED_VIEW_QUERY_MAX = 2000;

/** A saved view as the navigation and the Save view dialog show it. */
export type SavedView = {
  id: string;
  name: string;
  /** Without "?" and without `page`; "" is the whole list. */
  query: string;
  shared: boolean;
  ownerName: string;
  /** The person asking made it. */
  mine: boolean;
  /** The person asking may remove it: their own, or any team view for an admin. */
  removable: boolean;
};

/** Where a saved view opens: the list at exactly the URL it was saved from (first page). */
export function savedViewHref(query: string): string {
  return query ? `/invoices?${query}` : "/invoices";
}
