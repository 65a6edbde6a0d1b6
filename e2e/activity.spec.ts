import { expect, test } from "@playwright/test";
import Papa from "papaparse";
import { seriousFindings, signIn } from "./fixtures";

/**
 * The Activity page as finance and admin use it: what support did shows up in words with its reason, the filters
 * live in the address, the export link downloads exactly the view, and an admin verifies the log on demand.
 * Viewer and support do not see the page.
 */

test("finance finds a cancellation by its reason, exports the view, and an admin verifies the log", async ({ page, browser }) => {
  // Support cancels an invoice with a reason, through the console's own API.
  const support = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const supportPage = await support.newPage();
  await signIn(supportPage, "support", "/invoices");
  const list = await supportPage.request.get("/sandbox/api/v1/invoices?status=expired&page_size=100&sort_order=desc", {
    headers: { "api-key": "sk_test_demo_full" },
  });
  const { items } = (await list.json()) as { items: { invoice_id: string; order_id: string }[] };
  const invoice = items[20];
  const reason = `Activity check ${Date.now().toString(36)}`;
  const origin = new URL(supportPage.url()).origin;
  // The provider's status before: an expired invoice with nothing received, which support cancels at once.
  const cancel = await supportPage.request.patch(`/api/invoices/${encodeURIComponent(invoice.invoice_id)}`, {
    data: { status: "cancelled", reason },
    headers: { origin },
  });
  expect(cancel.status()).toBe(200);
  await supportPage.goto("/activity");
  await expect(supportPage.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  await support.close();

  await signIn(page, "finance", "/activity");
  await expect(page.getByRole("link", { name: "Activity" }).first()).toBeVisible();
  await page.getByLabel("Reason contains").fill(reason);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]q=Activity/);
  const entry = page.getByTestId("activity-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(`Cancelled invoice ${invoice.order_id}`);
  await expect(entry).toContainText(`Reason: ${reason}`);
  await expect(entry).toContainText("support@example.com");
  await expect(page.locator("#activity-range")).toHaveText("1–1 of 1");
  await expect(page.getByRole("link", { name: "Verify the log" })).toHaveCount(0);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSV" }).click()]);
  const rows = Papa.parse<string[]>((await (await download.createReadStream()).toArray()).join("").trim()).data;
  expect(rows).toHaveLength(2);
  expect(rows[1]).toContain(reason);

  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousFindings(page), scheme).toEqual([]);
  }

  await page.context().clearCookies();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin", "/activity");
  await page.getByRole("link", { name: "Verify the log" }).click();
  await expect(page.getByTestId("chain-check")).toContainText(/[\d,]+ entries verified\. Newest: #\d+, hash [0-9a-f]{64}/);
  // The export itself is in the log.
  await page.goto("/activity?action=activity.export");
  await expect(page.getByTestId("activity-entry").first()).toContainText("Exported 1 activity entry as CSV");
});
