import { expect, test } from "@playwright/test";
import { signIn } from "./fixtures";

/**
 * Status codes tell the truth: an unknown invoice is an HTTP 404 (not a 200 that says so), a page
 * the role may not open a 403, and a forged session cookie a sign-in redirect with no data. Checked on the
 * document a browser receives, and with a plain HTTP client as a monitor or a crawler would ask.
 */

const UNKNOWN = "invoice_00000000-0000-7000-8000-000000000000";

test("an unknown invoice id answers 404 with the not-found page, which names the id and the ways on", async ({ page }) => {
  await signIn(page, "viewer");
  const response = await page.goto(`/invoices/${UNKNOWN}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "No invoice has this id" })).toBeVisible();
  await expect(page.getByText(UNKNOWN, { exact: true })).toBeVisible();
  await expect(page.getByText("it is no order id the console has read", { exact: false })).toBeVisible();
  await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute("content", /noindex/);

  // A malformed id too, and asked for as a monitor would (the same session, no browser). Next.js sends a page
  // interrupted before streaming as its payload for the browser to render, so the words are in the answer.
  for (const id of [UNKNOWN, "not-an-id", "inv%2F2024%2007"]) {
    const answer = await page.request.get(`/invoices/${id}`, { maxRedirects: 0 });
    expect(answer.status(), id).toBe(404);
    expect(await answer.text()).toContain("No invoice has this id");
  }

  await page.getByRole("link", { name: "Search the list for it" }).click();
  await expect(page).toHaveURL(new RegExp(`/invoices\\?q=${UNKNOWN}$`));
  await page.goto(`/invoices/${UNKNOWN}`);
  await page.getByRole("link", { name: "Back to all invoices" }).click();
  await expect(page).toHaveURL(/\/invoices$/);
});

test("a known invoice still answers 200", async ({ page }) => {
  await signIn(page, "viewer");
  const list = await page.request.get("/api/invoices?page_size=1");
  const id = (await list.json()).items[0].invoice_id as string;
  const response = await page.goto(`/invoices/${encodeURIComponent(id)}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("a page the role does not open answers 403 with the refusal page", async ({ page }) => {
  await signIn(page, "viewer");
  for (const path of ["/users", "/archive", "/webhooks"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();
    await expect(page.getByText("You are signed in as viewer")).toBeVisible();
  }
});

test("a forged session cookie gets the sign-in redirect, never the invoice or its 404", async ({ playwright, baseURL }) => {
  const outsider = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { cookie: "invoice-console.session_token=forged.value" },
  });
  for (const path of [`/invoices/${UNKNOWN}`, "/users", "/overview"]) {
    const answer = await outsider.get(path, { maxRedirects: 0 });
    expect(answer.status(), path).toBe(307);
    expect(answer.headers().location).toBe(`/login?next=${encodeURIComponent(path)}`);
    // The layout's check sends them away before the page asks the provider anything: no 404 was decided.
    const body = await answer.text();
    expect(body).toContain("NEXT_REDIRECT");
    expect(body).not.toContain("NEXT_HTTP_ERROR_FALLBACK");
  }
  await outsider.dispose();
});
