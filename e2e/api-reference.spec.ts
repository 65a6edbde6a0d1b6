import { expect, test } from "@playwright/test";
import { signIn } from "./fixtures";

/**
 * The API reference renders from the sandbox's OpenAPI document on the server, as plain HTML: no CSP violation,
 * nothing from the internet, and all of it there before any script runs.
 */
test("the API reference renders every endpoint under the strict CSP, loading nothing from elsewhere", async ({ page, baseURL }) => {
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["data:", "blob:"].includes(url.protocol) && url.origin !== new URL(baseURL!).origin) foreign.push(request.url());
  });

  await signIn(page, "viewer");
  await page.getByRole("link", { name: "API reference" }).first().click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  for (const summary of [
    "List invoices",
    "Get one invoice",
    "Change an invoice's status",
    "Record an archived invoice",
    "Supported cryptocurrencies",
  ]) {
    await expect(page.getByRole("heading", { name: summary }).first()).toBeVisible({ timeout: 30_000 });
  }
  await expect(page.getByText("Api-key").first()).toBeVisible();
  // Each operation says its method and path, and shows its parameters, request body and responses with examples.
  const patch = page.getByRole("article", { name: "Change an invoice's status" });
  await expect(patch.getByText("patch", { exact: true })).toBeVisible();
  await expect(patch.getByText("/invoices/{invoice_id}", { exact: true })).toBeVisible();
  await expect(patch.getByRole("heading", { name: "Parameters" })).toBeVisible();
  await expect(patch.getByRole("heading", { name: /^Request body/ })).toBeVisible();
  await expect(patch.getByRole("heading", { name: "Responses" })).toBeVisible();
  await expect(patch.getByRole("figure").filter({ hasText: '"status": "cancelled"' }).first()).toBeVisible();
  // The contents link to each operation.
  await page.getByRole("navigation", { name: "API reference contents" }).getByRole("link", { name: "Supported cryptocurrencies" }).click();
  await expect(page).toHaveURL(/#op-/);
  expect(problems).toEqual([]);
  expect(foreign).toEqual([]);

  // Rendered on the server: the page's own HTML already holds every operation, before any script.
  const html = await (await page.request.get("/docs/api")).text();
  for (const summary of ["List invoices", "Record an archived invoice", "Send a test status webhook"]) expect(html).toContain(summary);

  const document = await page.request.get("/sandbox/api/v1/openapi.json");
  expect(document.status()).toBe(200);
  expect((await document.json()).openapi).toBe("3.1.0");
});
