import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { signIn } from "./fixtures";

const KEY = { "api-key": "sk_test_demo_full" };
const SIZES = { desktop: { width: 1440, height: 1000 }, phone: { width: 390, height: 844 } };
const out = (name: string) => `screenshots-tmp/${name}.png`;

test("screenshots", async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin", "/webhooks");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.goto("/webhooks");
      await page.waitForTimeout(500);
      await page.screenshot({ path: out(`webhooks-empty-${scheme}-${size}`), fullPage: true });
    }
  }
  const list = await (await request.get(`/sandbox/api/v1/invoices?status=pending&page_size=100`, { headers: KEY })).json();
  const invoice = list.items.find((i: { callback_url: string | null }) => i.callback_url);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(SIZES.desktop);
  await page.goto(`/webhooks?invoice=${invoice.invoice_id}`);
  await page.getByRole("button", { name: "Send webhook" }).click();
  await expect(page.getByTestId("inbox-entry").first()).toBeVisible();
  // A tampered one.
  const body = JSON.stringify({ type: "invoice.status_changed", data: { invoice: { invoice_id: invoice.invoice_id, status: "cancelled" }, simulated: false } });
  const at = new Date();
  await request.post("/api/webhook-inbox", { data: body.replace("cancelled", "completed"), headers: { "content-type": "application/json", "webhook-id": "msg_x", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook("whsec_aW52b2ljZS1jb25zb2xlLWRlbW8tc2VjcmV0IQ==").sign("msg_x", at, body) } });
  await expect(page.locator('[data-verdict="invalid"]').first()).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.getByTestId("inbox-entry").first().getByText("Body and headers").click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: out(`webhooks-sent-${scheme}-${size}`), fullPage: true });
      await page.getByTestId("inbox-entry").first().getByText("Body and headers").click();
    }
  }
  // The invoice page with deliveries.
  await page.goto(`/invoices/${invoice.invoice_id}`);
  await page.getByRole("button", { name: "Send test webhook" }).click();
  await expect(page.getByRole("list", { name: "Invoice timeline" })).toContainText("delivered", { timeout: 10_000 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(300);
      await page.screenshot({ path: out(`invoice-${scheme}-${size}`), fullPage: true });
    }
  }
});
