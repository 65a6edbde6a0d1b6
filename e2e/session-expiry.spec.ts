import { expect, type Page, test } from "@playwright/test";
import { type DemoRole, invoiceRows, sessionEndedDialog, signInAgainWithPassword, untilHydrated } from "./fixtures";

/**
 * An expired session never loses work: a change or a form sent after the session ended asks to sign
 * in again in place, then completes; what was typed is never typed again.
 */

const KEY = { "api-key": "sk_test_demo_full" };
const run = Date.now().toString(36).toUpperCase();

/**
 * Ends the session on the server: signed out in another tab (the session row is deleted), then the old cookie
 * put back, so this tab still sends it (a person disabled, a session revoked). With `cookieKept: false` the
 * browser holds no session cookie any more, as after a sign-out in another tab or a cookie that expired with its session.
 */
async function endSession(page: Page, { cookieKept = true } = {}): Promise<void> {
  const cookies = await page.context().cookies();
  const other = await page.context().newPage();
  await other.goto("/rates");
  await expect(async () => {
    await other.getByRole("button", { name: /Account menu for/ }).click();
    await other.getByRole("menuitem", { name: "Sign out" }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(other).toHaveURL(/signed_out=1/);
  await other.close();
  if (cookieKept) await page.context().addCookies(cookies);
}

/** Signs in with a demo account's button; the first page of a fresh server may take a while to draw. */
async function signIn(page: Page, role: DemoRole, next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("button", { name: new RegExp(`Sign in as ${role}`) }).click();
  await expect(page.getByTestId("user-role")).toHaveText(role[0].toUpperCase() + role.slice(1), { timeout: 20_000 });
}

/**
 * An invoice of `status`, the `index`-th oldest: each test takes its own. The cancels take expired invoices: they
 * have received nothing, so support cancels them at once (a paid one's cancel waits for approval,
 * e2e/approvals.spec.ts).
 */
async function invoiceOf(page: Page, status: string, index: number): Promise<{ invoice_id: string; order_id: string }> {
  const response = await page.request.get(`/sandbox/api/v1/invoices?status=${status}&page_size=100&sort_order=asc`, { headers: KEY });
  const { items } = await response.json();
  expect(items.length, `invoices of status ${status}`).toBeGreaterThan(index);
  return items[index];
}

test("the archive form sent after the session ended asks to sign in in place, then records the invoice; nothing is retyped", async ({
  page,
}) => {
  await signIn(page, "finance", "/archive");
  const order = `EXPIRY-${run}`;
  await untilHydrated(page.getByLabel("Order id (required)"));
  await page.getByLabel("Order id (required)").fill(order);
  await page.getByLabel("Order name").fill("Kept through sign-in");
  await page.getByLabel("Currency (required)").selectOption("BTC");
  await page.getByLabel("Amount in EUR").fill("49.90");
  await endSession(page);

  await page.getByRole("button", { name: "Record archived invoice" }).click();
  const dialog = sessionEndedDialog(page);
  await expect(dialog).toContainText("what you typed is kept");
  await dialog.getByRole("button", { name: "Sign in as finance" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/invoices\/invoice_/);
  await expect(page.getByText(`Order ${order}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Kept through sign-in");
});

const sessionEnds = [
  { how: "the session ended on the server (the cookie still sent)", cookieKept: true, index: 12, ticket: 7001 },
  { how: "signed out in another tab (no cookie left)", cookieKept: false, index: 10, ticket: 7002 },
];
for (const { how, cookieKept, index, ticket } of sessionEnds) {
  test(`${how}: a confirmed cancellation signs in again in place and cancels with the reason typed`, async ({ page }) => {
    const invoice = await invoiceOf(page, "expired", index);
    await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}`);
    const trigger = page.getByRole("button", { name: "Cancel invoice" });
    await untilHydrated(trigger);
    await trigger.click();
    const confirm = page.getByRole("alertdialog", { name: `Cancel invoice for order ${invoice.order_id}?` });
    const reason = `Duplicate of another order (ticket ${ticket})`;
    await confirm.getByLabel("Reason (required)").fill(reason);
    await endSession(page, { cookieKept });
    // No session cookie left; the known device stays (it signs nobody in: lib/console/auth/known-device.ts).
    if (!cookieKept) expect((await page.context().cookies()).map((c) => c.name)).toEqual(["console_known_device"]);

    await confirm.getByRole("button", { name: "Cancel invoice" }).click();
    await expect(sessionEndedDialog(page)).toBeVisible();
    const dialog = await signInAgainWithPassword(page, "support@example.com", "sandbox-demo");
    await expect(dialog).toBeHidden();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 }).getByText("Cancelled")).toBeVisible();
    const change = page
      .getByRole("list", { name: "Invoice timeline" })
      .getByRole("listitem")
      .filter({ hasText: "Status changed from Expired to Cancelled" });
    await expect(change).toContainText(reason);
  });
}

test("'Cancel invoice' clicked before the page's scripts load still cancels: the server draws the confirmation", async ({ page }) => {
  const invoice = await invoiceOf(page, "expired", 14);
  await signIn(page, "support", "/overview");
  // Scripts held back, as on a slow phone before they arrive.
  await page.route("**/_next/static/chunks/**", (route) => route.abort());
  await page.goto(`/invoices/${encodeURIComponent(invoice.invoice_id)}`);
  await page.getByRole("button", { name: "Cancel invoice" }).click();
  const form = page.getByRole("region", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await form.getByLabel("Reason (required)").fill("Clicked before scripts loaded");
  await form.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page).toHaveURL(/\?changed=cancelled$/);
  await expect(page.getByRole("heading", { level: 1 }).getByText("Cancelled")).toBeVisible();
  await expect(page.getByRole("list", { name: "Invoice timeline" })).toContainText("Clicked before scripts loaded");
});

test("a page opened after the session ended leads to sign-in or says 'signed out', never blames the invoicing API", async ({ page }) => {
  await signIn(page, "admin", "/overview");
  await endSession(page);
  await page.getByRole("link", { name: "Users" }).click();
  // Either the sign-in page (the page's own guard) or the error page that says so; never "the invoicing API".
  await expect(page.getByText(/Sign in again|signed out|Sign in to continue|Your session ended/).first()).toBeVisible();
  await expect(page.getByText("invoicing API may be unreachable")).toHaveCount(0);
});

test("a bulk cancel confirmed after the session ended signs in again in place and starts, with the reason typed", async ({ page }) => {
  test.setTimeout(90_000);
  // Expired invoices, which support cancels at once (a bulk cancel of paid ones waits for approval, item by item).
  await signIn(page, "support", "/invoices?status=expired&sort_by=fiat_amount&sort_order=asc&page=3");
  for (const row of [invoiceRows(page).nth(0), invoiceRows(page).nth(1)]) {
    await untilHydrated(row.getByRole("checkbox"));
    await row.getByRole("checkbox").check();
  }
  await page.getByRole("button", { name: "Cancel invoices…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel 2 invoices?" });
  const reason = `Voided in bulk after sign-in ${run}`;
  await confirm.getByLabel(/Reason/).fill(reason);
  await endSession(page);

  await confirm.getByRole("button", { name: "Cancel 2 invoices" }).click();
  const dialog = sessionEndedDialog(page);
  await dialog.getByRole("button", { name: "Sign in as support" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("bulk-progress")).toHaveText(/Bulk cancel done: 2 cancelled\./, { timeout: 30_000 });
});

/** The Users page's "Add a user" form, filled in as an admin would. */
async function fillNewUser(page: Page, email: string): Promise<void> {
  await signIn(page, "admin", "/users");
  await untilHydrated(page.getByRole("button", { name: "Add user" }));
  await page.getByLabel("Name").fill("Kept Through Sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("support");
}

test("a person added after the session ended is added once the admin signs in again in place; nothing is retyped", async ({ page }) => {
  const email = `after-expiry-${run.toLowerCase()}@example.com`;
  await fillNewUser(page, email);
  await endSession(page);

  await page.getByRole("button", { name: "Add user" }).click();
  const dialog = sessionEndedDialog(page);
  await dialog.getByRole("button", { name: "Sign in as admin" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `${email} is added as Support.` })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: email })).toBeVisible();
});

test("closing 'Your session ended' keeps the form as typed and says the change was not sent", async ({ page }) => {
  const email = `kept-draft-${run.toLowerCase()}@example.com`;
  await fillNewUser(page, email);
  await endSession(page);

  await page.getByRole("button", { name: "Add user" }).click();
  const dialog = sessionEndedDialog(page);
  await dialog.getByRole("button", { name: "Not now" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("alert").filter({ hasText: "your change was not sent" })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Kept Through Sign-in");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Role", { exact: true })).toHaveValue("support");
  await expect(page).toHaveURL(/\/users$/);
});

test("signing in again as someone else does not send the previous person's change; it stays for them to check", async ({ page }) => {
  const invoice = await invoiceOf(page, "expired", 16);
  await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}`);
  const trigger = page.getByRole("button", { name: "Cancel invoice" });
  await untilHydrated(trigger);
  await trigger.click();
  const confirm = page.getByRole("alertdialog", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await confirm.getByLabel("Reason (required)").fill("Typed by support before the session ended");
  await endSession(page);

  await confirm.getByRole("button", { name: "Cancel invoice" }).click();
  const dialog = sessionEndedDialog(page);
  await dialog.getByRole("button", { name: "Sign in as admin" }).click();
  await expect(dialog).toBeHidden();
  await expect(confirm).toContainText("Signed in as admin@example.com — your change was not sent; check it and send it again.");
  await expect(confirm.getByLabel("Reason (required)")).toHaveValue("Typed by support before the session ended");
  const current = await page.request.get(`/sandbox/api/v1/invoices/${encodeURIComponent(invoice.invoice_id)}`, { headers: KEY });
  expect((await current.json()).status).toBe("expired");
  await expect(page.getByTestId("user-role")).toHaveText("Admin");
});

test("the status form the server draws (?change=), sent with scripts on, says what the status is now", async ({ page }) => {
  const invoice = await invoiceOf(page, "expired", 18);
  await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}?change=cancelled`);
  const form = page.getByRole("region", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await untilHydrated(form.getByRole("button", { name: "Cancel invoice" }));
  await form.getByLabel("Reason (required)").fill("Sent from the server-drawn form");
  await form.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page).toHaveURL(/\?changed=cancelled$/);
  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();
});

test("after another tab signed in as someone else, a change from this tab is not sent, and it says why", async ({ page }) => {
  const invoice = await invoiceOf(page, "expired", 20);
  await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}`);
  const trigger = page.getByRole("button", { name: "Cancel invoice" });
  await untilHydrated(trigger);
  await trigger.click();
  const confirm = page.getByRole("alertdialog", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await confirm.getByLabel("Reason (required)").fill("Typed by support");

  // Another tab of the same browser signs in as admin: this tab now sends admin's session cookie, no 401.
  const other = await page.context().newPage();
  await other.goto("/rates");
  const signedIn = await other.evaluate(async () => {
    const response = await fetch("/api/session/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ demo: "admin" }),
    });
    return response.ok;
  });
  expect(signedIn).toBe(true);
  await other.close();

  await confirm.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(confirm).toContainText(
    "This page was opened while someone else was signed in; you are now signed in as admin@example.com. Your change was not sent — reload to continue as admin@example.com.",
  );
  await expect(sessionEndedDialog(page)).toHaveCount(0);
  await expect(confirm.getByLabel("Reason (required)")).toHaveValue("Typed by support");
  const current = await page.request.get(`/sandbox/api/v1/invoices/${encodeURIComponent(invoice.invoice_id)}`, { headers: KEY });
  expect((await current.json()).status).toBe("expired");
});

test("'Status is now …' from the server-drawn form is not brought back once a dialog opens", async ({ page }) => {
  // New → Expired: a change admin makes at once (setting an invoice back to Pending now waits for approval).
  const invoice = await invoiceOf(page, "new", 3);
  await signIn(page, "admin", `/invoices/${encodeURIComponent(invoice.invoice_id)}?change=expired`);
  const form = page.getByRole("region", { name: `Change the status of order ${invoice.order_id}` });
  await untilHydrated(form.getByRole("button", { name: "Set to Expired" }));
  await form.getByLabel("Reason (required)").fill("The customer chose another way to pay");
  await form.getByRole("button", { name: "Set to Expired" }).click();
  await expect(page).toHaveURL(/\?changed=expired$/);
  const said = page.getByRole("status").filter({ hasText: "Status is now Expired." });
  await expect(said).toBeVisible();

  await page.getByRole("button", { name: "Change status…" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(said).toHaveCount(0);
});

test("the server-drawn status form (?change=) sent with scripts after the session ended signs in again in place", async ({ page }) => {
  const invoice = await invoiceOf(page, "expired", 22);
  await signIn(page, "support", `/invoices/${encodeURIComponent(invoice.invoice_id)}?change=cancelled`);
  const form = page.getByRole("region", { name: `Cancel invoice for order ${invoice.order_id}?` });
  await untilHydrated(form.getByRole("button", { name: "Cancel invoice" }));
  await form.getByLabel("Reason (required)").fill("Kept through signing in again");
  await endSession(page);

  await form.getByRole("button", { name: "Cancel invoice" }).click();
  const dialog = sessionEndedDialog(page);
  await dialog.getByRole("button", { name: "Sign in as support" }).click();
  await expect(page).toHaveURL(/\?changed=cancelled$/);
  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();
});
