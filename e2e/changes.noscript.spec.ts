import { expect, type Page, test } from "@playwright/test";

/**
 * The changes with scripts held back: signing in, cancelling an invoice with a reason and recording
 * an archived invoice are plain forms that post to server actions, so they work before scripts load and
 * without them.
 */

const KEY = { "api-key": "sk_test_demo_full" };
const run = Date.now().toString(36).toUpperCase();

/** Signs in with a demo account's button: a form that posts, no script needed. */
async function signIn(page: Page, role: "support" | "finance" | "admin", next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("button", { name: new RegExp(`Sign in as ${role}`) }).click();
  await expect(page.getByTestId("user-role")).toHaveText(role[0].toUpperCase() + role.slice(1));
}

/**
 * An invoice of `status`, the `index`-th oldest: each spec takes its own, so no two change the same one. The
 * cancels take expired invoices: they have received nothing, so support cancels them at once (a paid one's
 * cancel waits for approval: e2e/approvals.noscript.spec.ts).
 */
async function invoiceOf(page: Page, status: string, index: number): Promise<{ invoice_id: string; order_id: string }> {
  const response = await page.request.get(`/sandbox/api/v1/invoices?status=${status}&page_size=100&sort_order=asc`, { headers: KEY });
  const { items } = await response.json();
  return items[Math.min(index, items.length - 1)];
}

test("support cancels an invoice with a reason without script: the confirmation is a page, refusals keep the reason", async ({ page }) => {
  const invoice = await invoiceOf(page, "expired", 30);
  await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}`);
  await expect(page.getByText(`Order ${invoice.order_id}`, { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page).toHaveURL(/\?change=cancelled$/);
  const form = page.getByRole("region", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await expect(form).toContainText("The status changes from Expired to Cancelled");
  // Blank is refused by the server, in the field's words; nothing changed and the page stays the form.
  await form.getByLabel("Reason (required)").fill("   ");
  await form.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(form.getByText("The reason is required: say why.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Expired")).toBeVisible();

  await form.getByLabel("Reason (required)").fill("Customer paid by bank transfer instead (ticket 5120)");
  await form.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page).toHaveURL(/\?changed=cancelled$/);
  await expect(page.getByRole("heading", { level: 1 }).getByText("Cancelled")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();
  const change = page
    .getByRole("list", { name: "Invoice timeline" })
    .getByRole("listitem")
    .filter({ hasText: "Status changed from Expired to Cancelled" });
  await expect(change).toContainText("Customer paid by bank transfer instead (ticket 5120)");
  await expect(change).toContainText("support@example.com");
});

test("'Change status…' without script: choose a status on the page", async ({ page }) => {
  const invoice = await invoiceOf(page, "new", 10);
  await signIn(page, "admin", `/invoices/${encodeURIComponent(invoice.invoice_id)}`);
  await page.getByRole("button", { name: "Change status…" }).click();
  const form = page.getByRole("region", { name: `Change the status of order ${invoice.order_id}` });
  await form.getByRole("radio", { name: /Expired/ }).check();
  // Every change says why.
  await form.getByLabel("Reason (required)").fill("The customer chose another way to pay");
  await form.getByRole("button", { name: "Change status" }).click();
  await expect(page).toHaveURL(/\?changed=expired$/);
  await expect(page.getByRole("heading", { level: 1 }).getByText("Expired")).toBeVisible();
});

test("finance records an archived invoice without script; a refusal comes back with everything typed", async ({ page }) => {
  await signIn(page, "finance", "/archive");
  const order = `NOSCRIPT-${run}`;
  await page.getByLabel("Order id (required)").fill(order);
  await page.getByLabel("Order name").fill("Recorded without script");
  await page.getByLabel("Currency (required)").selectOption("BTC");
  await page.getByLabel("Amount in EUR").fill("12.345");
  await page.getByRole("button", { name: "Record archived invoice" }).click();
  // Three decimals for EUR: refused on its field, and nothing typed is lost.
  await expect(page.getByText(/Amount .*2 decimal/i)).toBeVisible();
  await expect(page.getByLabel("Order id (required)")).toHaveValue(order);
  await expect(page.getByLabel("Order name")).toHaveValue("Recorded without script");
  await expect(page.getByLabel("Currency (required)")).toHaveValue("BTC");
  await expect(page.getByLabel("Amount in EUR")).toHaveValue("12.345");
  // The server's sentence under the amount names the currency chosen.
  await expect(page.getByTestId("amount-preview")).toHaveText(
    "Enter it in EUR or in Bitcoin; the provider derives the other amount at the rate of the creation date and records the rate.",
  );

  await page.getByLabel("Amount in EUR").fill("12.34");
  await page.getByRole("button", { name: "Record archived invoice" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Archived invoice recorded for order ${order}.` })).toBeVisible();
  await page.getByRole("link", { name: "Open the invoice" }).click();
  await page.waitForURL(/\/invoices\/invoice_/);
  await expect(page.getByText(`Order ${order}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Archived")).toBeVisible();
  await expect(page.getByText("€12.34").first()).toBeVisible();
});

/**
 * Ends this browser's session on the server: signed out in another browser context (with script, for the
 * account menu) holding the same cookie. This context keeps sending its cookie, as a browser does with a
 * session that ended.
 */
async function endSession(page: Page): Promise<void> {
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: true, baseURL: new URL(page.url()).origin });
  await context.addCookies(await page.context().cookies());
  const other = await context.newPage();
  await other.goto("/rates");
  await expect(async () => {
    await other.getByRole("button", { name: /Account menu for/ }).click();
    await other.getByRole("menuitem", { name: "Sign out" }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(other).toHaveURL(/signed_out=1/);
  await context.close();
}

test("the archive form sent without script after the session ended keeps its draft through sign-in", async ({ page }) => {
  await signIn(page, "finance", "/archive");
  const order = `NOSCRIPT-DRAFT-${run}`;
  await page.getByLabel("Order id (required)").fill(order);
  await page.getByLabel("Order name").fill("Kept through sign-in");
  await page.getByLabel("Currency (required)").selectOption("ETH");
  await page.getByLabel("Amount in EUR").fill("20.50");
  await endSession(page);

  await page.getByRole("button", { name: "Record archived invoice" }).click();
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect(page.getByText("Your session ended. Sign in again to finish; what you typed is kept.")).toBeVisible();
  await page.getByRole("button", { name: /Sign in as finance/ }).click();
  await expect(page).toHaveURL(/\/archive\?/);
  await expect(page.getByLabel("Order id (required)")).toHaveValue(order);
  await expect(page.getByLabel("Order name")).toHaveValue("Kept through sign-in");
  await expect(page.getByLabel("Currency (required)")).toHaveValue("ETH");
  await expect(page.getByLabel("Amount in EUR")).toHaveValue("20.50");
  await page.getByRole("button", { name: "Record archived invoice" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Archived invoice recorded for order ${order}.` })).toBeVisible();
});

test("a cancellation sent without script after the session ended keeps its reason through sign-in", async ({ page }) => {
  const invoice = await invoiceOf(page, "expired", 32);
  await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}?change=cancelled`);
  const form = page.getByRole("region", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await form.getByLabel("Reason (required)").fill("Kept through sign-in (ticket 9)");
  await endSession(page);

  await form.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page.getByText("Your session ended. Sign in again to finish; what you typed is kept.")).toBeVisible();
  await page.getByRole("button", { name: /Sign in as support/ }).click();
  await expect(form.getByLabel("Reason (required)")).toHaveValue("Kept through sign-in (ticket 9)");
  await form.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page).toHaveURL(/\?changed=cancelled$/);
  await expect(page.getByRole("list", { name: "Invoice timeline" })).toContainText("Kept through sign-in (ticket 9)");
});

test("a cancellation drawn for support, sent without script after admin signed in elsewhere, is refused and says why", async ({
  page,
  baseURL,
}) => {
  const invoice = await invoiceOf(page, "expired", 34);
  await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}?change=cancelled`);
  const form = page.getByRole("region", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await form.getByLabel("Reason (required)").fill("Typed by support");
  // Another tab of the same browser signs in as admin (the same cookie jar).
  const other = await page.request.post("/api/session/sign-in", { data: { demo: "admin" }, headers: { origin: baseURL ?? "" } });
  expect(other.ok()).toBe(true);

  await form.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(
    page.getByText("This page was opened while someone else was signed in; you are now signed in as admin@example.com."),
  ).toBeVisible();
  const current = await page.request.get(`/sandbox/api/v1/invoices/${encodeURIComponent(invoice.invoice_id)}`, { headers: KEY });
  expect((await current.json()).status).toBe("expired");
});
