import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { compareDecimal } from "@/lib/contract/money";
import { chooseStatuses, invoiceRange, invoiceRows, signIn, statusFilter, untilInteractive } from "./fixtures";

/** Finance staff find invoices: filter, sort and page through the table; the URL keeps the view. */

/** One column's texts, once the table is on screen. */
async function column(page: Page, index: number): Promise<string[]> {
  await expect(invoiceRows(page).first()).toBeVisible();
  return invoiceRows(page).locator(`td:nth-child(${index})`).allInnerTexts();
}
const euros = (texts: string[]) => texts.map((t) => Number(t.replace(/[^0-9.]/g, "")));
const STATUS_COLUMN = 5; // after the selection checkbox

test.beforeEach(async ({ page }) => signIn(page, "viewer"));
const AMOUNT_COLUMN = 6;
const CRYPTO_COLUMN = 7;

test("the first page arrives with the HTML, not after a client fetch", async ({ page }) => {
  const html = await (await page.request.get("/invoices?status=completed&currency=BTC")).text();
  expect(html).toMatch(/1–20 of [\d,]+/);
  expect(html.match(/ORD-\d{4}-\d{6}/g)?.length).toBeGreaterThanOrEqual(20);
  expect(html).toContain("Completed");
});

test("filter, sort and paginate; reload and back restore the view", async ({ page }) => {
  await page.goto("/invoices");
  await expect(invoiceRows(page)).toHaveCount(20);
  await untilInteractive(page);
  const total = Number((await invoiceRange(page).innerText()).split(" of ")[1].replace(/,/g, ""));
  expect(total).toBeGreaterThanOrEqual(2000);

  await chooseStatuses(page, ["Completed"]);
  await expect(page).toHaveURL(/status=completed/);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN))).toEqual(new Set(["Completed"]));

  await page.getByLabel("Currency").selectOption("BTC");
  await expect(page).toHaveURL(/currency=BTC/);
  await expect.poll(async () => (await column(page, CRYPTO_COLUMN)).every((t) => t.trim().endsWith("BTC"))).toBe(true);

  // Amount: first click sorts high to low, the second low to high.
  const amountHeader = page.getByRole("columnheader", { name: /Amount \(EUR\)/ });
  await amountHeader.getByRole("link").click();
  await expect(page).toHaveURL(/sort_by=fiat_amount/);
  await expect(amountHeader).toHaveAttribute("aria-sort", "descending");
  await expect
    .poll(async () => {
      const amounts = euros(await column(page, AMOUNT_COLUMN));
      return amounts.every((a, i) => i === 0 || amounts[i - 1] >= a);
    })
    .toBe(true);
  await amountHeader.getByRole("link").click();
  await expect(amountHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/sort_order=asc/);
  await expect
    .poll(async () => {
      const amounts = euros(await column(page, AMOUNT_COLUMN));
      return amounts.length === 20 && amounts.every((a, i) => i === 0 || amounts[i - 1] <= a);
    })
    .toBe(true);
  const lastOfPageOne = euros(await column(page, AMOUNT_COLUMN)).at(-1)!;

  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(invoiceRange(page)).toHaveText(/^21–40 of /);
  await expect.poll(async () => euros(await column(page, AMOUNT_COLUMN))[0]).toBeGreaterThanOrEqual(lastOfPageOne);
  const pageTwo = await column(page, 2);

  // A reload shows the same view, controls included.
  await page.reload();
  await expect(statusFilter(page)).toHaveText("Completed");
  await expect(page.getByLabel("Currency")).toHaveValue("BTC");
  await expect(invoiceRange(page)).toHaveText(/^21–40 of /);
  expect(await column(page, 2)).toEqual(pageTwo);

  // Back steps through the history of views.
  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);
  await expect(invoiceRange(page)).toHaveText(/^1–20 of /);
  await page.goForward();
  await expect(invoiceRange(page)).toHaveText(/^21–40 of /);

  // Changing a filter returns to page 1; a bigger page shows more rows.
  await chooseStatuses(page, ["Expired"]);
  await expect(page).not.toHaveURL(/page=2/);
  await expect(invoiceRange(page)).toHaveText(/^1–20 of /);
  await page.getByLabel("Rows per page").selectOption("50");
  await expect(page).toHaveURL(/page_size=50/);
  await expect.poll(async () => invoiceRows(page).count()).toBeGreaterThan(20);

  await page.getByRole("link", { name: "Reset filters" }).click();
  await expect(page).not.toHaveURL(/status=|currency=/);
  await expect(statusFilter(page)).toHaveText("All statuses");
});

test("a change of view renders the list on the server without reloading the page; back and forward restore it", async ({ page }) => {
  await page.goto("/invoices");
  await untilInteractive(page);
  // The list is rendered on the server: a change of view is a router navigation (the page's RSC
  // payload), never a new document, and nothing asks the API for rows from the browser.
  const documents: string[] = [];
  const apiLists: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === "document") documents.push(url.href);
    if (url.pathname === "/api/invoices") apiLists.push(url.href);
  });
  await chooseStatuses(page, ["Expired"]);
  await expect(page).toHaveURL(/\?status=expired$/);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN))).toEqual(new Set(["Expired"]));
  await expect(statusFilter(page)).toHaveText("Expired");

  await page.goBack();
  await expect(page).not.toHaveURL(/status=/);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN)).size).toBeGreaterThan(1);
  await expect(statusFilter(page)).toHaveText("All statuses");
  await expect(page.locator("#status-filter input[value=expired]")).not.toBeChecked();
  await page.goForward();
  await expect(page).toHaveURL(/\?status=expired$/);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN))).toEqual(new Set(["Expired"]));
  await expect(page.locator("#status-filter input[value=expired]")).toBeChecked();
  expect(documents).toEqual([]);
  expect(apiLists).toEqual([]);
});

test("the selects follow the view when a link or back changes it: Reset filters, a sort header, back", async ({ page }) => {
  await page.goto("/invoices?currency=BTC");
  await untilInteractive(page);
  await page.getByRole("link", { name: "Reset filters" }).click();
  await expect(page).toHaveURL(/\/invoices$/);
  await expect(page.getByLabel("Currency")).toHaveValue("");

  await page.getByLabel("Rows per page").selectOption("50");
  await expect(page).toHaveURL(/page_size=50/);
  await expect(invoiceRows(page)).toHaveCount(50);
  await page.getByRole("link", { name: /Amount \(EUR\)/ }).click();
  await expect(page).toHaveURL(/sort_by=fiat_amount/);
  await expect(page.getByLabel("Rows per page")).toHaveValue("50");
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/\/invoices$/);
  await expect(page.getByLabel("Rows per page")).toHaveValue("20");
  await page.goForward();
  await expect(page.getByLabel("Rows per page")).toHaveValue("50");
});

test("while the next view is on its way, the rows on screen stay and a thin bar says so (no skeleton)", async ({ page }) => {
  await page.goto("/invoices");
  await untilInteractive(page);
  const before = await column(page, 3);
  // The server's answer for the next view is held until the page has been looked at.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === "/invoices" && url.searchParams.get("currency") === "BTC",
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.getByLabel("Currency").selectOption("BTC");
  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toBeVisible();
  expect(await column(page, 3)).toEqual(before);
  await expect(page.getByRole("status", { name: /Loading/ })).toHaveCount(0);
  release();
  await expect(page).toHaveURL(/currency=BTC/);
  await expect.poll(async () => (await column(page, CRYPTO_COLUMN)).every((t) => t.trim().endsWith("BTC"))).toBe(true);
  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toHaveCount(0);
});

test("a date preset and a custom range filter by creation date", async ({ page }) => {
  await page.goto("/invoices");
  await untilInteractive(page);
  await page.getByLabel("Created").selectOption("7d");
  await expect(page).toHaveURL(/created=7d/);
  const weekAgo = Date.now() - 8 * 86_400_000;
  await expect
    .poll(async () => {
      const stamps = await invoiceRows(page)
        .locator("td:nth-child(8) time")
        .evaluateAll((els) => els.map((e) => e.getAttribute("datetime")!));
      return stamps.length > 0 && stamps.every((s) => Date.parse(s) > weekAgo);
    })
    .toBe(true);

  await page.getByLabel("Created").selectOption("custom");
  await page.getByLabel("From", { exact: true }).fill("2020-01-01");
  await page.getByLabel("To", { exact: true }).fill("2020-01-31");
  await expect(page.getByText("No invoices match these filters")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(invoiceRows(page)).toHaveCount(20);
  await expect(page).not.toHaveURL(/from=|to=/);
});

test("invalid URL parameters fall back to the defaults", async ({ page }) => {
  await page.goto("/invoices?page=abc&page_size=7&status=bogus&sort_by=name&currency=%24%24");
  await expect(invoiceRows(page)).toHaveCount(20);
  await expect(invoiceRange(page)).toHaveText(/^1–20 of /);
  await expect(statusFilter(page)).toHaveText("All statuses");
  // Said, not silently ignored, in the server's HTML.
  const notice = page.getByTestId("list-url-notice");
  await expect(notice).toContainText("“bogus” is not a status; showing all statuses.");
  await expect(notice).toContainText("“abc” is not a page number");
  await expect(notice).toContainText("“name” cannot be sorted by");
  await expect(notice).toContainText("“$$” is not a currency code");
});

test("a page past the end offers the last page", async ({ page }) => {
  await page.goto("/invoices?page=9999");
  await expect(page.getByText("This page is past the end of the list")).toBeVisible();
  await page.getByRole("link", { name: "Go to the last page" }).click();
  await expect(invoiceRows(page).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
});

test("a row opens its invoice; an unknown id shows a way back", async ({ page }) => {
  await page.goto("/invoices?status=completed");
  // The order's name links to its invoice (also before and without script).
  const orderId = (await column(page, 3))[0];
  await invoiceRows(page).first().locator("td:nth-child(4)").click();
  await expect(page).toHaveURL(/\/invoices\/invoice_[0-9a-f-]{36}$/);
  await expect(page.getByText(`Order ${orderId}`)).toBeVisible();
  await expect(page.getByText(/\d+ \(confirmed, \d+ required\)/)).toBeVisible();

  await page.goto("/invoices/invoice_00000000-0000-7000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "No invoice has this id" })).toBeVisible();
  await page.goto("/invoices/not-an-id");
  await expect(page.getByRole("heading", { name: "No invoice has this id" })).toBeVisible();
  await page.getByRole("link", { name: "Back to all invoices" }).click();
  await expect(invoiceRows(page)).toHaveCount(20);
});

test("the API key never reaches the browser", async ({ page }) => {
  const bodies: string[] = [];
  page.on("response", async (response) => bodies.push(await response.text().catch(() => "")));
  await page.goto("/invoices");
  await untilInteractive(page);
  await chooseStatuses(page, ["Pending"]);
  await expect(page).toHaveURL(/status=pending/);
  await page.waitForLoadState("networkidle");
  expect(bodies.length).toBeGreaterThan(3);
  // The demo key, and the console's own key on the embedded sandbox (random: its fixed prefix).
  for (const body of bodies) for (const key of ["sk_test_demo_full", "sk_test_console_"]) expect(body).not.toContain(key);
});

test("no file shipped to browsers contains the API key", () => {
  const files = readdirSync(".next/static", { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) {
    const text = readFileSync(path.join(file.parentPath, file.name), "latin1");
    for (const key of ["sk_test_demo_full", "sk_test_console_"]) expect(text, file.name).not.toContain(key);
  }
});

test("screenshot of the table", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto("/invoices?sort_by=fiat_amount");
  await expect(invoiceRows(page)).toHaveCount(20);
  await page.screenshot({ path: testInfo.outputPath("invoice-table.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(invoiceRows(page)).toHaveCount(20);
  await page.screenshot({ path: testInfo.outputPath("invoice-table-dark.png"), fullPage: true });
});

test("on a phone (390 px) each invoice is a card: order, status, created, both amounts and a checkbox, without a sideways scroll", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/invoices");
  await expect(invoiceRows(page)).toHaveCount(20);
  await expect(page.locator("table").filter({ visible: true })).toHaveCount(0);
  const first = invoiceRows(page).first();
  await expect(first.getByRole("link")).toHaveText(/\S/);
  await expect(first.getByRole("checkbox", { name: /^Select invoice / })).toBeVisible();
  await expect(first).toContainText(/€[\d,]+\.\d{2}/);
  await expect(first).toContainText(/\d\.\d+ [A-Z]{2,10}/);
  await expect(first.locator("time")).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} /);
  const box = (await first.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The status filter's panel opens inside the screen, every checkbox reachable.
  await statusFilter(page).click();
  const panel = await page.locator("#status-filter fieldset").boundingBox();
  expect(panel!.x).toBeGreaterThanOrEqual(0);
  expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
  await statusFilter(page).click();
  // The cards say their order and sort by any column the table can, highest first here.
  await page.getByText("Sort: Creation date, newest first").click();
  await page.getByRole("list", { name: "Sort the invoices" }).getByRole("link", { name: "Amount, highest first", exact: true }).click();
  await expect(page).toHaveURL(/sort_by=fiat_amount/);
  await expect(page.getByText("Sort: Amount, highest first")).toBeVisible();
  await expect(page.getByRole("list", { name: "Sort the invoices" })).toBeHidden();
  const euros = (await invoiceRows(page).locator("span.font-medium", { hasText: "€" }).allInnerTexts()).map((t) =>
    t.replace(/[^\d.]/g, ""),
  );
  expect(euros.length).toBe(20);
  expect(euros.slice(1).every((euro, i) => compareDecimal(euros[i], euro) >= 0)).toBe(true);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.reload();
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${scheme}\\b`));
    await expect(invoiceRows(page)).toHaveCount(20);
    await page.screenshot({ path: testInfo.outputPath(`invoice-list-390-${scheme}.png`), fullPage: true });
  }
});
