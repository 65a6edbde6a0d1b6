import { expect } from "vitest";

/**
 * A page's first form as a browser without script posts it: the hidden fields Next.js renders for the
 * server action (`$ACTION_…`), to which a test adds what a person would type.
 */
export async function noScriptForm(pageUrl: string, init: RequestInit = {}): Promise<FormData> {
  const html = await fetch(pageUrl, init).then((r) => r.text());
  const form = new FormData();
  const firstForm = html.slice(html.indexOf("<form"), html.indexOf("</form>"));
  for (const [, name, value] of firstForm.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)) {
    form.set(name, (value ?? "").replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
  }
  expect([...form.keys()].some((k) => k.startsWith("$ACTION"))).toBe(true);
  return form;
}
