import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { signIn, startStatusChange } from "./fixtures";

/** Developers and sales demo webhooks: send one, watch it arrive in the console's inbox, signature checked. */

const KEY = { "api-key": "sk_test_demo_full" };
const DEMO_SECRET = "whsec_aW52b2ljZS1jb25zb2xlLWRlbW8tc2VjcmV0IQ==";

/**
 * A seeded invoice of the demo merchant in `status` that has a callback URL (the console's inbox): the oldest, or
 * the one `skip` places after it (a test that changes its invoice takes another than the tests that only look).
 */
async function invoiceWithCallback(
  request: APIRequestContext,
  status: string,
  skip = 0,
): Promise<{ invoice_id: string; order_id: string; callback_url: string }> {
  const list = await (await request.get(`/sandbox/api/v1/invoices?status=${status}&page_size=100&sort_order=asc`, { headers: KEY })).json();
  const invoice = list.items.filter((i: { callback_url: string | null }) => i.callback_url)[skip];
  expect(invoice.callback_url).toMatch(/\/api\/webhook-inbox$/);
  return invoice;
}

function inboxEntry(page: Page, invoiceId: string) {
  return page.getByTestId("inbox-entry").filter({ hasText: invoiceId });
}

test("an admin simulates a webhook on a seeded invoice and sees it arrive in the inbox, signature valid, within seconds", async ({
  page,
  request,
}) => {
  await signIn(page, "admin", "/webhooks");
  await page.getByRole("link", { name: "Webhooks" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

  const invoice = await invoiceWithCallback(request, "new");
  await page.getByLabel("Invoice id").fill(invoice.invoice_id);
  await page.getByLabel("Status the webhook announces").selectOption("completed");
  await expect(page.getByText(`"invoice_id":"${invoice.invoice_id}","status":"completed"`)).toBeVisible(); // copy as curl, no key
  await page.getByRole("button", { name: "Send webhook" }).click();

  const answer = page.getByTestId("simulation-answer");
  await expect(answer).toContainText("delivered");
  await expect(answer).toContainText("/api/webhook-inbox: the receiver answered HTTP 200");

  // No reload: the inbox polls.
  const entry = inboxEntry(page, invoice.invoice_id).first();
  await expect(entry).toBeVisible({ timeout: 5_000 });
  await expect(entry).toHaveAttribute("data-verdict", "valid");
  await expect(entry).toContainText("Signature valid");
  await expect(entry).toContainText("Simulated");
  // What it announced, at a glance: the order and the status, without opening the body.
  await expect(entry).toContainText(`Order ${invoice.order_id}`);
  await expect(entry).toContainText("New → Completed");
  await entry.getByText("Body and headers").click();
  await expect(entry.locator("pre").first()).toContainText('"simulated": true');

  // The invoice did not change.
  const after = await (await request.get(`/sandbox/api/v1/invoices/${invoice.invoice_id}`, { headers: KEY })).json();
  expect(after.status).toBe("new");
});

test("cancelling from the invoice page sends the real webhook: it arrives in the inbox and its delivery is in the timeline", async ({
  page,
  request,
}) => {
  // An expired invoice has received nothing: admin cancels it at once (a paid one's cancel waits for approval).
  const invoice = await invoiceWithCallback(request, "expired", 40);
  await signIn(page, "admin", `/invoices/${invoice.invoice_id}`);
  await page.goto(`/invoices/${invoice.invoice_id}`);
  // A dialog once the page's scripts run, the server's form if clicked before: the person goes on in either.
  const cancel = await startStatusChange(page, "Cancel invoice", /^Cancel invoice for order/);
  await cancel.getByLabel("Reason (required)").fill("Webhook demo");
  await cancel.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(cancel).toBeHidden();
  await expect(page.getByRole("list", { name: "Invoice timeline" })).toContainText("Status changed from Expired to Cancelled");

  await page.getByRole("link", { name: "Open the inbox" }).click();
  const entry = inboxEntry(page, invoice.invoice_id).first();
  await expect(entry).toBeVisible({ timeout: 5_000 });
  await expect(entry).toHaveAttribute("data-verdict", "valid");
  await expect(entry).toContainText("Real change");

  await page.goto(`/invoices/${invoice.invoice_id}`);
  const timeline = page.getByRole("list", { name: "Invoice timeline" });
  await expect(timeline).toContainText(/Webhook \(Cancelled\) delivered: HTTP 200 in \d+ ms/);
});

test("a tampered request to the inbox is kept and shown as signature invalid", async ({ page, request }) => {
  const invoiceId = `invoice_tampered_${Date.now()}`;
  const body = JSON.stringify({
    type: "invoice.status_changed",
    timestamp: new Date().toISOString(),
    data: { invoice: { invoice_id: invoiceId, status: "cancelled" }, previous_status: "pending", simulated: false },
  });
  const at = new Date();
  const id = `msg_e2e_${Date.now()}`;
  const signature = new Webhook(DEMO_SECRET).sign(id, at, body);
  const answer = await request.post("/api/webhook-inbox", {
    data: body.replace('"cancelled"', '"completed"'),
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    },
  });
  expect(answer.status()).toBe(401);

  await signIn(page, "admin", "/webhooks");
  await page.goto("/webhooks");
  const entry = inboxEntry(page, invoiceId);
  await expect(entry).toHaveAttribute("data-verdict", "invalid");
  await expect(entry).toContainText("Signature invalid");
  await expect(entry).toContainText("No v1 signature matches");
});

test("an admin sends a test webhook from an invoice's page: a toast says what the provider answered, and it arrives in the inbox", async ({
  page,
  request,
}) => {
  const invoice = await invoiceWithCallback(request, "expired");
  await signIn(page, "admin", `/invoices/${invoice.invoice_id}`);
  await page.goto(`/invoices/${invoice.invoice_id}`);
  await page.getByLabel("Test webhook announcing").selectOption("completed");
  await page.getByRole("button", { name: "Send test webhook" }).click();
  await expect(page.getByText("Test webhook sent: delivered")).toBeVisible();

  await page.getByRole("link", { name: "Open the inbox" }).click();
  const entry = inboxEntry(page, invoice.invoice_id).first();
  await expect(entry).toBeVisible({ timeout: 5_000 });
  await expect(entry).toHaveAttribute("data-verdict", "valid");
  await expect(entry).toContainText("Simulated");
  // The invoice did not change.
  const after = await (await request.get(`/sandbox/api/v1/invoices/${invoice.invoice_id}`, { headers: KEY })).json();
  expect(after.status).toBe("expired");
});

test("the inbox filters by verdict in its address, without script too", async ({ page }) => {
  await signIn(page, "admin", "/webhooks");
  // Unsigned posts from elsewhere, as a flood would bring.
  for (let i = 0; i < 3; i++) {
    const answer = await page.request.post("/api/webhook-inbox", {
      data: { type: "invoice.status_changed", data: { invoice_id: `inv_flood_${i}` } },
    });
    expect(answer.status()).toBe(202);
  }
  await page.getByRole("checkbox", { name: "Not verified" }).check();
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/inbox_verdict=not_verified/);
  const form = page.getByRole("form", { name: "Filter the inbox" });
  await expect(form.getByRole("checkbox", { name: "Not verified" })).toBeChecked();
  await expect(page.getByText("inv_flood_2").first()).toBeVisible();
  await page.goto("/webhooks?inbox_verdict=valid&inbox_invoice=inv_flood_2");
  await expect(page.getByText("Nothing received matches this filter yet.")).toBeVisible();
});
