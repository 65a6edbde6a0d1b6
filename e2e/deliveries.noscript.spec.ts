import { expect, test } from "@playwright/test";
import { signIn } from "./fixtures";

/** The deliveries view without scripts: read the attempts (a plain <details>) and resend with the plain form. */

const KEY = { "api-key": "sk_test_demo_full" };

test("without scripts, an admin opens a delivery's attempts and resends it", async ({ page, request }) => {
  const list = await (await request.get("/sandbox/api/v1/invoices?status=pending&page_size=100&sort_order=asc", { headers: KEY })).json();
  const invoiceId = list.items.filter((i: { callback_url: string | null }) => i.callback_url)[4].invoice_id;
  await request.post("/sandbox/api/v1/webhooks/simulate", { headers: KEY, data: { invoice_id: invoiceId, status: "expired" } });

  await signIn(page, "admin", `/webhooks/deliveries?invoice=${invoiceId}`);
  await page.goto(`/webhooks/deliveries?invoice=${invoiceId}`);
  const row = page.locator("tr[data-webhook-id]").first();
  await row.getByText(/^\d+ attempts?$/).click();
  const before = await row.locator("ol > li").count();
  await row.getByRole("button", { name: /^Resend webhook msg_/ }).click();
  // The page comes back drawn again, the delivery closed: opened, it holds the new attempt and what it came to.
  const after = page.locator("tr[data-webhook-id]").first();
  await after.getByText(`${before + 1} attempts`).click();
  await expect(after.locator("ol > li")).toHaveCount(before + 1);
  await expect(after.locator("ol > li").last()).toContainText(/Resent: HTTP 20\d/);
  await expect(after.getByRole("status")).toContainText(/^Resent msg_.*: the receiver answered HTTP 20\d\.$/);
});
