// Without nuqs: the list's forms push this from the browser, whose first load does without the URL parsers.
import { commaList } from "./list-query";

/**
 * The list's URL as one canonical query string ("?status=pending,paid_partial&currency=BTC"), from a URL or
 * from the toolbar's GET form: empty fields are left out, repeated `status` boxes become one list,
 * "Custom range…" is no value of its own, and a preset drops the custom days. The form's script pushes this
 * same string, and the server redirects a form submitted without script to it, so both land on one URL.
 */
export function canonicalListSearch(entries: Iterable<[string, string]>): string {
  const params = new URLSearchParams();
  const statuses: string[] = [];
  for (const [key, raw] of entries) {
    const value = raw.trim();
    if (value === "" || (key === "created" && value === "custom")) continue;
    if (key === "status") statuses.push(...commaList(value));
    else params.set(key, value);
  }
  if (params.has("created")) {
    params.delete("from");
    params.delete("to");
  }
  const ordered = new URLSearchParams();
  // In the order given: the form's boxes are in the statuses' usual order.
  const statusValue = [...new Set(statuses)].join(",");
  if (statusValue) ordered.set("status", statusValue);
  for (const [key, value] of params) ordered.set(key, value);
  const text = ordered.toString().replaceAll("%2C", ",");
  return text ? `?${text}` : "";
}
