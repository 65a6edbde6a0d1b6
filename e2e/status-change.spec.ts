import { expect, type Page, test } from "@playwright/test";
import { chooseStatuses, invoiceRows, signIn, untilInteractive } from "./fixtures";

/** Support cancels an order's invoice: find it, cancel with a reason, see it everywhere. */

/** Finds an invoice the way support does: the list filtered by status (a shared link), then a click. */
async function openFirstInvoice(page: Page, status: string): Promise<string> {
  await page.goto(`/invoices?status=${status}&sort_by=created_at&sort_order=asc`);
  // A row opens its invoice through script: clicked before hydration, it does nothing.
  await untilInteractive(page);
  const first = invoiceRows(page).first();
  const orderId = (await first.locator("td:nth-child(3)").innerText()).trim();
  await first.locator("td:nth-child(4)").click();
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();
  return orderId;
}

test("support cancels an invoice with a reason, by keyboard; the timeline and the cancelled filter show it", async ({ page }) => {
  await signIn(page, "support");
  const orderId = await openFirstInvoice(page, "pending");

  // The whole flow without a mouse.
  await page.getByRole("button", { name: "Cancel invoice" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: `Cancel invoice for order ${orderId}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("The status changes from Pending to Cancelled");
  await expect(dialog).toContainText("sends a status webhook to");
  await expect(page.getByLabel("Reason (required)")).toBeFocused();
  await page.keyboard.type("Order voided at the customer's request (ticket 4821)");
  await page.keyboard.press("Tab"); // Keep invoice
  await page.keyboard.press("Tab"); // Cancel invoice
  await page.keyboard.press("Enter");

  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Change status…" })).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Cancelled")).toBeVisible();
  // The change, with its reason and who made it. Its webhook's delivery may already be listed above it.
  const timeline = page.getByRole("list", { name: "Invoice timeline" });
  const change = timeline.getByRole("listitem").filter({ hasText: "Status changed from Pending to Cancelled" });
  await expect(change).toHaveCount(1);
  await expect(change).toContainText("Order voided at the customer's request (ticket 4821)");
  await expect(change).toContainText("support@example.com");

  // The list, cached before the change, shows the new status too.
  await page.getByRole("link", { name: "← All invoices" }).click();
  await chooseStatuses(page, ["Cancelled"]);
  await page
    .getByRole("columnheader", { name: /Updated/ })
    .getByRole("button")
    .click();
  await expect(page).toHaveURL(/sort_by=updated_at/);
  await expect(invoiceRows(page).first().locator("td:nth-child(3)")).toHaveText(orderId);
});

test("Escape closes the dialog without a change, and focus returns to the control", async ({ page }) => {
  await signIn(page, "admin");
  await openFirstInvoice(page, "new");
  await page.getByRole("button", { name: "Change status…" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("radio")).toHaveCount(5);
  // Nothing is preselected: a stray Enter changes nothing.
  await expect(dialog.getByRole("button", { name: "Choose a status" })).toBeDisabled();
  await dialog.getByRole("radio", { name: /Cancelled/ }).check();
  await expect(page.getByLabel("Reason (required)")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Change status…" })).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 }).getByText("New")).toBeVisible();
});

test("a viewer sees no status control and no sentence about it on every invoice", async ({ page }) => {
  await signIn(page, "viewer");
  await openFirstInvoice(page, "pending");
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel invoice" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Change status…" })).toHaveCount(0);
  await expect(page.getByText("Only support and admin can change an invoice's status.")).toHaveCount(0);
});

test("an upstream failure during the change is shown in the dialog, and the status is unchanged", async ({ page }) => {
  await signIn(page, "support");
  await openFirstInvoice(page, "new");
  await page.route("**/api/invoices/*", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 502,
          contentType: "application/problem+json",
          body: JSON.stringify({
            title: "The invoicing API failed",
            status: 502,
            code: "upstream_error",
            detail: "It answered HTTP 500. Try again; if it persists, the provider may be having an outage.",
          }),
        })
      : route.continue(),
  );
  await page.getByRole("button", { name: "Cancel invoice" }).click();
  await page.getByLabel("Reason (required)").fill("Duplicate order");
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel invoice" }).click();
  const alert = page.getByRole("alertdialog").getByRole("alert");
  await expect(alert).toContainText("The payment provider failed or could not be reached; try again in a minute. Nothing was changed.");
  await expect(alert).toContainText("It answered HTTP 500.");
  await expect(page.getByLabel("Reason (required)")).toHaveValue("Duplicate order");

  await page.unroute("**/api/invoices/*");
  await page.getByRole("button", { name: "Keep invoice" }).click();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 }).getByText("New")).toBeVisible();
});
