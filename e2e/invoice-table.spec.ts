import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
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
  await amountHeader.getByRole("button").click();
  await expect(page).toHaveURL(/sort_by=fiat_amount/);
  await expect(amountHeader).toHaveAttribute("aria-sort", "descending");
  await expect
    .poll(async () => {
      const amounts = euros(await column(page, AMOUNT_COLUMN));
      return amounts.every((a, i) => i === 0 || amounts[i - 1] >= a);
    })
    .toBe(true);
  await amountHeader.getByRole("button").click();
  await expect(amountHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/sort_order=asc/);
  await expect
    .poll(async () => {
      const amounts = euros(await column(page, AMOUNT_COLUMN));
      return amounts.length === 20 && amounts.every((a, i) => i === 0 || amounts[i - 1] <= a);
    })
    .toBe(true);
  const lastOfPageOne = euros(await column(page, AMOUNT_COLUMN)).at(-1)!;

  await page.getByRole("button", { name: "Next page" }).click();
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

  await page.getByRole("button", { name: "Reset filters" }).click();
  await expect(page).not.toHaveURL(/status=|currency=/);
  await expect(statusFilter(page)).toHaveText("All statuses");
});

test("a change of view asks the API for the rows, never the server for the page again", async ({ page }) => {
  await page.goto("/invoices");
  await untilInteractive(page);
  // What a router navigation to the list itself would fetch: the page's RSC payload (prefetches of the
  // invoice pages the rows link to are other paths).
  const pageFetches: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (
      url.pathname === "/invoices" &&
      request.resourceType() !== "document" &&
      (request.headers().rsc === "1" || url.searchParams.has("_rsc"))
    )
      pageFetches.push(url.href);
  });
  const rows = page.waitForResponse((response) => response.url().includes("/api/invoices?") && response.url().includes("status=expired"));
  await chooseStatuses(page, ["Expired"]);
  expect((await rows).status()).toBe(200);
  await expect(page).toHaveURL(/\?status=expired$/);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN))).toEqual(new Set(["Expired"]));

  await page.goBack();
  await expect(page).not.toHaveURL(/status=/);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN)).size).toBeGreaterThan(1);
  await page.goForward();
  await expect(page).toHaveURL(/\?status=expired$/);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN))).toEqual(new Set(["Expired"]));
  expect(pageFetches).toEqual([]);
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
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(invoiceRows(page)).toHaveCount(20);
  await expect(page).not.toHaveURL(/from=|to=/);
});

test("invalid URL parameters fall back to the defaults", async ({ page }) => {
  await page.goto("/invoices?page=abc&page_size=7&status=bogus&sort_by=name&currency=%24%24");
  await expect(invoiceRows(page)).toHaveCount(20);
  await expect(invoiceRange(page)).toHaveText(/^1–20 of /);
  await expect(statusFilter(page)).toHaveText("All statuses");
});

test("a page past the end offers the last page", async ({ page }) => {
  await page.goto("/invoices?page=9999");
  await expect(page.getByText("This page is past the end of the list")).toBeVisible();
  await untilInteractive(page);
  await page.getByRole("button", { name: "Go to the last page" }).click();
  await expect(invoiceRows(page).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
});

test("an API failure shows the problem and a retry that recovers", async ({ page }) => {
  await page.goto("/invoices");
  await expect(invoiceRows(page)).toHaveCount(20);
  await untilInteractive(page);
  await page.route("**/api/invoices?*", (route) =>
    route.fulfill({
      status: 502,
      contentType: "application/problem+json",
      body: JSON.stringify({
        title: "The invoicing API cannot be reached",
        status: 502,
        code: "upstream_unreachable",
        detail: "Could not connect to pay.example.",
      }),
    }),
  );
  await chooseStatuses(page, ["Cancelled"]);
  const alert = page.getByRole("alert").filter({ hasText: "invoicing API" });
  await expect(alert).toContainText("The invoicing API cannot be reached");
  await expect(alert).toContainText("Could not connect to pay.example.");
  await page.unroute("**/api/invoices?*");
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(alert).toHaveCount(0);
  await expect.poll(async () => new Set(await column(page, STATUS_COLUMN))).toEqual(new Set(["Cancelled"]));
});

test("a row opens its invoice; an unknown id shows a way back", async ({ page }) => {
  await page.goto("/invoices?status=completed");
  // A row opens its invoice through script: clicked before hydration, it does nothing.
  await untilInteractive(page);
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
});
