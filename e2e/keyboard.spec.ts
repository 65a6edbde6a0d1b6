import { expect, type Locator, type Page, test } from "@playwright/test";
import { invoiceRows, statusFilter } from "./fixtures";

/**
 * A support person who uses no mouse: sign in, filter, sort, page, open an invoice, cancel it with a reason,
 * go back to the same page of the list, and switch the theme — with page.keyboard alone. Locators only
 * check where focus is; they never click or fill.
 */

/** Presses Tab (or Shift+Tab) until `target` has focus, as a person would; fails if it never gets there. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

test("sign in, filter, sort, page, open, cancel with a reason, back to the same page and change the theme by keyboard", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/login");
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.keyboard.type("support@example.com");
  await page.keyboard.press("Tab");
  await page.keyboard.type("sandbox-demo");
  await page.keyboard.press("Enter");
  // Sign-in lands on the overview; on a server just started its first view waits for its first provider calls.
  await expect(page.getByTestId("user-role")).toHaveText("Support", { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  // The skip link is the first stop and lands on the page's content.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();

  // From the overview to the table through the header's navigation.
  await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invoices" }));
  await page.keyboard.press("Enter");
  await expect(invoiceRows(page).first()).toBeVisible();

  // Filter: the status list (a disclosure) opens with Enter, its boxes tick with Space, Escape closes it.
  await tabTo(page, statusFilter(page));
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: "New" })).toBeFocused();
  await page.keyboard.press("Tab"); // Pending
  await page.keyboard.press("Tab"); // Completed
  // Expired: enough of them for a second page, and they have received nothing, so support cancels one at once
  // (a paid invoice's cancel waits for a second person's approval: e2e/approvals.spec.ts).
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: "Expired" })).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("Escape");
  await expect(statusFilter(page)).toBeFocused();
  await expect(page).toHaveURL(/status=expired/);
  await expect(invoiceRows(page).first()).toBeVisible();

  // Sort by amount.
  await tabTo(page, page.getByRole("columnheader", { name: /Amount \(EUR\)/ }).getByRole("link"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort_by=fiat_amount/);

  // Next page.
  await tabTo(page, page.getByRole("link", { name: "Next page" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator("#invoice-range").filter({ visible: true })).toContainText(/^21–/);

  // Open the first row: one Tab stop a row, back up from the pagination.
  const firstLink = invoiceRows(page)
    .first()
    .getByRole("link", { name: /^Open invoice/ });
  await tabTo(page, firstLink, { back: true });
  const orderId = (await invoiceRows(page).first().locator("td:nth-child(3)").innerText()).trim();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();

  // Cancel it with a reason.
  await tabTo(page, page.getByRole("button", { name: "Cancel invoice" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alertdialog", { name: `Cancel invoice for order ${orderId}?` })).toBeVisible();
  await expect(page.getByLabel("Reason (required)")).toBeFocused();
  await page.keyboard.type("Order voided by phone (ticket 5120)");
  await page.keyboard.press("Tab"); // Keep invoice
  await page.keyboard.press("Tab"); // Cancel invoice
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Change status…" })).toBeFocused();

  // Change the theme in the user menu.
  const accountMenu = page.getByRole("button", { name: /Account menu for/ });
  await tabTo(page, accountMenu, { back: true });
  // The menu's code loads after the page (components/ui/deferred-menu.tsx); its trigger then carries data-state.
  await expect(accountMenu).toHaveAttribute("data-state", "closed");
  await page.keyboard.press("Enter");
  const dark = page.getByRole("menuitemradio", { name: "Dark" });
  await expect(page.getByRole("menu")).toBeVisible();
  for (let i = 0; i < 10 && !(await dark.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("ArrowDown");
  // Never Enter on another item (the last one signs out).
  await expect(dark).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.keyboard.press("Escape");

  // "← All invoices" returns to the page of the list the invoice was opened from.
  await tabTo(page, page.getByRole("link", { name: "← All invoices" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/status=expired/);
});
