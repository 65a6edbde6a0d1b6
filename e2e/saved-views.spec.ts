import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { invoiceRange, invoiceRows, signIn, untilHydrated, untilInteractive } from "./fixtures";

/**
 * A saved team view opened by another person, and "Open by invoice or order id" with an order id.
 * SHOTS_DIR (default test-results/e2e) receives the navigation with saved views, at 1440 and 390 px.
 */

const shots = process.env.SHOTS_DIR ?? "test-results/e2e";
const VIEW_URL = "/invoices?status=pending,paid_partial";

/** The invoice ids the table shows, in order: what "the same rows" means. */
async function rowIds(page: Page): Promise<string[]> {
  await expect(invoiceRows(page).first()).toBeVisible();
  return invoiceRows(page)
    .locator("td:nth-child(2) a[href^='/invoices/']")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
}

type Answer = { index: { state: string; fresh_as_of: string | null } };

/** The console fills its index (the mirror that answers several statuses) in the background after it starts. */
async function untilIndexReady(page: Page) {
  await expect
    .poll(async () => ((await (await page.request.get("/api/search?q=ORD")).json()) as Answer).index, { timeout: 90_000, intervals: [500] })
    .toMatchObject({ state: "ready", fresh_as_of: expect.any(String) });
}

async function noSeriousAxeFinding(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

test("an admin saves the team view “Unpaid”; a viewer opens it from the navigation on the same URL with the same rows", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  mkdirSync(shots, { recursive: true });
  await signIn(page, "admin", VIEW_URL);
  await untilIndexReady(page);
  await page.reload();
  await untilInteractive(page);
  const range = await invoiceRange(page).innerText();
  const ids = await rowIds(page);
  expect(ids.length).toBeGreaterThan(0);

  const save = page.getByRole("button", { name: "Save view" });
  await untilHydrated(save);
  await save.click();
  const dialog = page.getByRole("dialog", { name: "Save this view" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Opens ${VIEW_URL}`);
  // A name is required, and one already taken by the same person is refused with a sentence.
  await dialog.getByLabel("Name", { exact: true }).fill("Unpaid");
  await dialog.getByLabel("The team").check();
  await noSeriousAxeFinding(page);
  await dialog.getByRole("button", { name: "Save view" }).click();
  await expect(dialog.getByRole("status")).toHaveText("“Unpaid” is saved for the team.");
  await expect(dialog.getByRole("link", { name: /^Unpaid/ })).toHaveAttribute("href", VIEW_URL);

  // Saved: closing leads, saving again under another name follows.
  await expect(dialog.getByRole("button", { name: "Done" })).toBeFocused();
  await dialog.getByLabel("Name", { exact: true }).fill("unpaid ");
  await dialog.getByRole("button", { name: "Save another" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Check the highlighted fields.");
  await expect(dialog.getByText("You already have a view with this name. Choose another.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  // Someone else, in their own browser.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const other = await context.newPage();
  await signIn(other, "viewer", "/overview");
  const views = other.getByRole("button", { name: "Saved views" });
  await untilHydrated(views);
  await views.click();
  const menu = other.getByRole("menu");
  await expect(menu.getByRole("group", { name: "Team views" })).toBeVisible();
  const link = menu.getByRole("menuitem", { name: /^Unpaid/ });
  await expect(link).toContainText("Demo admin");
  await other.screenshot({ path: path.join(shots, "nav-saved-views-1440.png") });
  await link.click();
  await expect(other).toHaveURL((url) => url.pathname + url.search === VIEW_URL);
  await untilInteractive(other);
  await expect(invoiceRange(other)).toHaveText(range);
  expect(await rowIds(other)).toEqual(ids);

  // A viewer may not remove the admin's team view: no Remove is offered to them.
  const otherSave = other.getByRole("button", { name: "Save view" });
  await untilHydrated(otherSave);
  await otherSave.click();
  const otherDialog = other.getByRole("dialog", { name: "Save this view" });
  await expect(otherDialog).toContainText("This view is already saved as Unpaid by Demo admin.");
  await expect(otherDialog.getByRole("button", { name: "Remove Unpaid" })).toHaveCount(0);
  await expect(otherDialog.getByRole("button", { name: "Rename Unpaid" })).toHaveCount(0);

  // On a phone the views sit under the main menu's links.
  await other.setViewportSize({ width: 390, height: 844 });
  await other.goto("/overview");
  const mainMenu = other.getByRole("button", { name: "Main menu" });
  await untilHydrated(mainMenu);
  await mainMenu.click();
  await expect(other.getByRole("menu").getByRole("menuitem", { name: /^Unpaid/ })).toBeVisible();
  await other.screenshot({ path: path.join(shots, "nav-saved-views-390.png") });
  await context.close();

  // The admin renames it (the name selected to type over), then removes it; it leaves the navigation.
  await page.reload();
  await untilInteractive(page);
  await untilHydrated(save);
  await save.click();
  await dialog.getByRole("button", { name: "Rename Unpaid" }).click();
  const rename = page.getByRole("alertdialog", { name: "Rename “Unpaid”" });
  await expect(rename.getByLabel("Name", { exact: true })).toBeFocused();
  await page.keyboard.type("Unpaid orders");
  await page.keyboard.press("Enter");
  await expect(rename).toBeHidden();
  await expect(dialog.getByRole("link", { name: /^Unpaid orders/ })).toHaveAttribute("href", VIEW_URL);
  await dialog.getByRole("button", { name: "Remove Unpaid orders" }).click();
  await page.getByRole("alertdialog", { name: "Remove “Unpaid orders”?" }).getByRole("button", { name: "Remove view" }).click();
  await expect(dialog.getByRole("link", { name: /^Unpaid/ })).toHaveCount(0);
  await expect(dialog.getByLabel("Name", { exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Saved views" }).click();
  await expect(page.getByRole("menu")).toContainText("None yet.");
});

test("“Open by invoice or order id” opens the invoice of a pasted order id", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "support");
  await untilIndexReady(page);
  const list = await (await page.request.get("/api/invoices?status=pending&page_size=1&page=3&sort_by=created_at&sort_order=asc")).json();
  const { order_id: orderId, invoice_id: invoiceId } = list.items[0] as { order_id: string; invoice_id: string };

  await untilInteractive(page);
  await page.getByLabel("Open by invoice or order id").fill(`  ${orderId.toLowerCase()} `);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/invoices/${encodeURIComponent(invoiceId)}`);
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();

  // Typed into the address instead: the order id opens its invoice there too.
  await page.goto(`/invoices/${encodeURIComponent(orderId)}`);
  await expect(page).toHaveURL((url) => url.pathname === `/invoices/${encodeURIComponent(invoiceId)}`);
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();
});
