import { expect, test } from "@playwright/test";
import { invoiceRows, signIn, statusFilter, untilInteractive } from "./fixtures";

/** The invoice list's toolbar with script: every change applies by itself, and the last one wins. */

const STATUS_COLUMN = 5;

test("a tick then an untick while the first is still loading: the URL and the rows follow the form", async ({ page }) => {
  await signIn(page, "viewer");
  await untilInteractive(page);
  const everything = await page.locator("#invoice-range").filter({ visible: true }).innerText();

  // The tick's page is held on its way (as on a slow connection) until the untick has been made.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === "/invoices" && url.searchParams.get("status") === "completed",
    async (route) => {
      await held;
      await route.continue();
    },
  );

  await statusFilter(page).click();
  const completed = page.locator("#status-filter").filter({ visible: true }).getByRole("checkbox", { name: "Completed", exact: true });
  await completed.check();
  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toBeVisible();
  await completed.uncheck();
  release();

  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toHaveCount(0);
  await expect(completed).not.toBeChecked();
  await expect(page).toHaveURL((url) => url.pathname === "/invoices" && url.search === "");
  await expect(statusFilter(page)).toHaveText("All statuses");
  await expect(page.locator("#invoice-range").filter({ visible: true })).toHaveText(everything);
  const statuses = await invoiceRows(page).locator(`td:nth-child(${STATUS_COLUMN})`).allInnerTexts();
  expect(statuses.some((status) => !status.includes("Completed"))).toBe(true);
});

test("two quick ticks: the list shows both statuses", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "viewer");
  await untilInteractive(page);
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === "/invoices" && url.searchParams.get("status") === "completed",
    async (route) => {
      await held;
      await route.continue();
    },
  );

  await statusFilter(page).click();
  const filter = page.locator("#status-filter").filter({ visible: true });
  await filter.getByRole("checkbox", { name: "Completed", exact: true }).check();
  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toBeVisible();
  await filter.getByRole("checkbox", { name: "Expired", exact: true }).check();
  release();

  await expect(page).toHaveURL((url) => url.searchParams.get("status") === "completed,expired");
  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toHaveCount(0);
  await expect(statusFilter(page)).toHaveText("Completed, Expired");
  await expect(filter.getByRole("checkbox", { name: "Completed", exact: true })).toBeChecked();
  await expect(filter.getByRole("checkbox", { name: "Expired", exact: true })).toBeChecked();
  // Two statuses are answered from the console's mirror, which a fresh console fills first; the page renders
  // itself again until it has.
  await expect(invoiceRows(page).first()).toBeVisible({ timeout: 150_000 });
  const statuses = await invoiceRows(page).locator(`td:nth-child(${STATUS_COLUMN})`).allInnerTexts();
  for (const status of statuses) expect(status).toMatch(/Completed|Expired/);
});

test("stepping through the currencies by arrow keys asks for one list, the one they stop at", async ({ page }) => {
  await signIn(page, "viewer");
  await untilInteractive(page);
  const asked: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/invoices" && url.searchParams.has("currency")) asked.push(url.searchParams.get("currency")!);
  });
  const currency = page.locator("#currency-filter").filter({ visible: true });
  await currency.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  const chosen = await currency.inputValue();
  expect(chosen).not.toBe("");
  await expect(page).toHaveURL(new RegExp(`[?&]currency=${chosen}(&|$)`));
  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toHaveCount(0);
  expect(new Set(asked)).toEqual(new Set([chosen]));
  // Chosen another way, it applies too.
  await currency.selectOption("");
  await expect(page).toHaveURL((url) => url.pathname === "/invoices" && !url.searchParams.has("currency"));
});
