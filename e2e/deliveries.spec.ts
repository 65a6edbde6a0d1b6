import { type APIRequestContext, expect, test } from "@playwright/test";
import { shortInvoiceId } from "@/lib/contract/format";
import { seriousFindings, signIn, untilHydrated } from "./fixtures";

/** Support and developers find a webhook among all deliveries, read what the receiver answered, and resend it. */

const KEY = { "api-key": "sk_test_demo_full" };

/** A seeded invoice of the demo merchant whose callback URL is the console's inbox, with one test webhook sent. */
async function deliveredInvoice(request: APIRequestContext, skip: number): Promise<string> {
  const list = await (await request.get("/sandbox/api/v1/invoices?status=pending&page_size=100&sort_order=asc", { headers: KEY })).json();
  const invoice = list.items.filter((i: { callback_url: string | null }) => i.callback_url)[skip];
  const sent = await request.post("/sandbox/api/v1/webhooks/simulate", {
    headers: KEY,
    data: { invoice_id: invoice.invoice_id, status: "completed" },
  });
  expect(await sent.json()).toMatchObject({ status: "delivered" });
  return invoice.invoice_id;
}

test("an admin finds a delivery by invoice, reads the receiver's answer, resends it and sees the new attempt", async ({
  page,
  request,
}, testInfo) => {
  const invoiceId = await deliveredInvoice(request, 3);
  await signIn(page, "admin", "/webhooks");
  await page.goto("/webhooks");
  await page.getByRole("link", { name: "Deliveries", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();

  // Failed is one click away, and the view is in the address.
  const failedTab = page.getByRole("navigation", { name: "Deliveries by state" }).getByRole("link", { name: "Failed" });
  await failedTab.click();
  await expect(page).toHaveURL(/\/webhooks\/deliveries\?state=failed$/);
  await expect(failedTab).toHaveAttribute("aria-current", "page");
  // "Show" keeps the state the tab chose.
  await page.getByRole("textbox", { name: "Invoice or order id" }).fill("ORD-NONE");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/webhooks\/deliveries\?state=failed&invoice=ORD-NONE$/);
  await expect(failedTab).toHaveAttribute("aria-current", "page");

  await page.goto("/webhooks/deliveries");
  // The short id the tables show (its tail) finds the invoice once the console's index holds it; the field
  // keeps what was typed, and the page says which invoice it found.
  const shortId = shortInvoiceId(invoiceId);
  await expect
    .poll(async () => (await (await page.request.get(`/api/search?q=${encodeURIComponent(shortId)}`)).json()).results?.[0]?.invoice_id)
    .toBe(invoiceId);
  await page.getByRole("textbox", { name: "Invoice or order id" }).fill(shortId);
  await page.getByRole("button", { name: "Show" }).click();
  // Only what is set: the form's empty fields are left out of the address.
  await expect(page).toHaveURL(new RegExp(`/webhooks/deliveries\\?invoice=${encodeURIComponent(shortId)}$`));
  await expect(page.getByRole("textbox", { name: "Invoice or order id" })).toHaveValue(shortId);
  await expect(page.getByText(`“${shortId}” is invoice`)).toBeVisible();
  await expect(page.getByRole("link", { name: invoiceId, exact: true }).first()).toBeVisible();
  const row = page.locator("tr[data-webhook-id]").first();
  await expect(row).toContainText("Delivered");
  await expect(row.getByRole("link", { name: invoiceId })).toHaveAttribute("href", `/invoices/${invoiceId}`);
  await expect(row).toContainText("invoice.status_changed");
  expect(await seriousFindings(page)).toEqual([]);

  await row.getByText("1 attempt").click();
  await expect(row).toContainText(/Attempt 1: HTTP 20\d/);
  // Its attempts open beside it without pushing the table wider than its card.
  expect(await page.locator("table").evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath("attempts-open-1280.png"), fullPage: true });
  await row.getByRole("button", { name: /^Resend webhook msg_/ }).click();
  // Its row still drawn, it says its answer beside the form, and only there.
  await expect(row.getByRole("status")).toContainText(/Resent msg_.*: the receiver answered HTTP 20\d\./);
  await expect(page.getByRole("status").filter({ hasText: /Resent msg_/ })).toHaveCount(1);
  await expect(page.locator("tr[data-webhook-id]").first()).toContainText("2 attempts");

  // The same delivery offers Resend on the invoice's timeline.
  await page.goto(`/invoices/${invoiceId}`);
  await expect(
    page
      .getByRole("list", { name: "Invoice timeline" })
      .getByRole("button", { name: /^Resend webhook msg_/ })
      .first(),
  ).toBeVisible();
});

test("a role without webhooks:manage is refused the deliveries view", async ({ page }) => {
  await signIn(page, "support", "/invoices");
  const answer = await page.goto("/webhooks/deliveries");
  expect(answer?.status()).toBe(403);
});

test("a view no delivery matches, or one the provider refuses, says so and offers to clear its filters", async ({ page }) => {
  await signIn(page, "admin", "/webhooks/deliveries");
  await page.goto("/webhooks/deliveries?invoice=invoice_00000000-0000-7000-8000-000000000000&state=failed");
  await expect(page.getByText("No deliveries match this view")).toBeVisible();
  await expect(page.getByText("Clear a filter to see more.")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/webhooks\/deliveries$/);
  await expect(page.getByText("No deliveries match this view")).toBeHidden();

  // Days the wrong way round are said in the form's words.
  await page.goto("/webhooks/deliveries?from=2026-11-30&to=2026-11-01");
  await expect(page.getByRole("alert").filter({ hasText: "To (2026-11-01) is before From (2026-11-30)" })).toBeVisible();

  // A filter the provider refuses says why, with the same way out.
  // An id or order id no invoice has is said in the field's words.
  await page.goto("/webhooks/deliveries?invoice=not-an-invoice-id");
  await expect(
    page.getByRole("alert").filter({ hasText: "No invoice has “not-an-invoice-id” as its invoice id or order id" }),
  ).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/webhooks\/deliveries$/);
});

test("a failed webhook resent from its row says how it went, though, delivered, it leaves the failed view", async ({ page }) => {
  await signIn(page, "admin", "/webhooks/deliveries?state=failed");
  await page.goto("/webhooks/deliveries?state=failed");
  // The seed's last failed one: the test below resends the first.
  const row = page.locator("tr[data-webhook-id]").filter({ hasText: "Failed" }).last();
  const id = await row.getAttribute("data-webhook-id");
  // A failed one's Resend is in view without opening its attempts.
  const resend = row.getByRole("button", { name: /^Resend webhook msg_/ });
  await expect(resend).toBeVisible();
  await untilHydrated(resend);
  await resend.click();
  await expect(page.getByRole("status").filter({ hasText: /Resent msg_.*: the receiver answered HTTP 20\d\./ })).toBeVisible();
  await expect(page.locator(`tr[data-webhook-id="${id}"]`)).toHaveCount(0);
  // Another view does not carry it along.
  await page.getByRole("navigation", { name: "Deliveries by state" }).getByRole("link", { name: "All" }).click();
  await expect(page).toHaveURL(/\/webhooks\/deliveries$/);
  await expect(page.getByRole("status").filter({ hasText: /Resent msg_/ })).toHaveCount(0);
});

test("the demo's failed webhooks are one click away, and resending them delivers each to the inbox", async ({ page }) => {
  await signIn(page, "admin", "/webhooks/deliveries?state=failed");
  await page.goto("/webhooks/deliveries?state=failed");
  // The seed's: the inbox answered 503 to every attempt of their retry schedule.
  const failed = page.locator("tr[data-webhook-id]").filter({ hasText: "Failed" });
  await expect(failed.first()).toBeVisible();

  await failed
    .first()
    .getByText(/\d+ attempts/)
    .click();
  await expect(failed.first()).toContainText("HTTP 503");

  // Narrowed to one invoice, so that what other tests left failing is not resent here.
  // The link shows the order id the console's index knows (else the id's tail); it leads to the whole id.
  const invoiceId = (
    await failed
      .first()
      .getByRole("link", { name: /invoice_/ })
      .first()
      .getAttribute("href")
  )?.replace("/invoices/", "");
  await page.goto(`/webhooks/deliveries?state=failed&invoice=${invoiceId}`);
  const resendAll = page.getByRole("button", { name: "Resend all 1 failed in this view" });
  await untilHydrated(resendAll);
  await resendAll.click();
  // Every receiver gets its webhook again: asked first.
  await page
    .getByRole("alertdialog", { name: "Resend 1 failed webhook?" })
    .getByRole("button", { name: "Resend 1 failed webhook" })
    .click();
  await expect(page).toHaveURL(/job=/);
  const job = page.getByRole("region", { name: "Resending failed webhooks" });
  // Each result names its invoice as the table does, by order id.
  await expect(job.getByRole("link", { name: new RegExp(`\\(${invoiceId}\\)$`) })).toHaveText(/^ORD-/);
  // Followed without a reload until it ends.
  await expect(job.getByRole("status")).toContainText("Resent 1 of 1 failed deliveries: 1 delivered", { timeout: 20_000 });
  // Once it ends, the view below is drawn again: its one failed delivery is no longer failed.
  await expect(page.getByText("No deliveries match this view")).toBeVisible();
  expect(await seriousFindings(page)).toEqual([]);

  // On a phone, each delivery stacks: no sideways scroll, and its attempts and Resend open at full width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/webhooks/deliveries?state=failed");
  const first = page.locator("tr[data-webhook-id]").first();
  expect((await first.boundingBox())?.width).toBeLessThanOrEqual(390);
  await first.getByText(/\d+ attempts/).click();
  const resend = first.getByRole("button", { name: /^Resend webhook msg_/ });
  await resend.scrollIntoViewIfNeeded();
  await expect(resend).toBeInViewport({ ratio: 1 });
});
