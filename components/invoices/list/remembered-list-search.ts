/**
 * Where the list was: the invoice list remembers its query so "← All invoices" restores filters, sort and page,
 * also in an invoice opened in a new tab, hence the browser's storage rather than the tab's.
 */
const LIST_SEARCH_KEY = "invoice-console:list-search";

export function rememberListSearch(search: string): void {
  try {
    localStorage.setItem(LIST_SEARCH_KEY, search);
  } catch {
    // Storage refused (private mode, quota): the link goes to the list as it starts.
  }
}

/** Signing out forgets it: a search (`q`) can name a customer, and the next person at this browser is someone else. */
export function forgetListSearch(): void {
  try {
    localStorage.removeItem(LIST_SEARCH_KEY);
  } catch {
    // Storage refused: nothing was kept.
  }
}

export function rememberedListSearch(): string {
  try {
    const search = localStorage.getItem(LIST_SEARCH_KEY) ?? "";
    return search.startsWith("?") ? search : "";
  } catch {
    return "";
  }
}
