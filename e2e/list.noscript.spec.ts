import { expect, type Page, test } from "@playwright/test";
import { invoiceRange, invoiceRows } from "./fixtures";

/**
 * The invoice list with scripts held back (the `no-script` project), as a person on a slow phone
 * meets it before they load: filter through the toolbar's form, sort by a header, page, open an invoice.
 */

const STATUS_COLUMN = 5;
const AMOUNT_COLUMN = 6;
const CRYPTO_COLUMN = 7;

async function column(page: Page, index: number): Promise<string[]> {
  await expect(invoiceRows(page).first()).toBeVisible();
  return invoiceRows(page).locator(`td:nth-child(${index})`).allInnerTexts();
}
const euros = (texts: string[]) => texts.map((t) => Number(t.replace(/[^0-9.]/g, "")));

// The sign-in page's demo buttons are a form: they work without script too.
test.beforeEach(async ({ page }) => {
  await page.goto("/login?next=%2Finvoices");
  await page.getByRole("button", { name: /Sign in as viewer/ }).click();
  await expect(page).toHaveURL(/\/invoices$/);
});

test("filter by two statuses and a currency with the form, sort by a header, page to the next and the last, open an invoice", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto("/invoices");
  await expect(invoiceRows(page)).toHaveCount(20);

  // The status filter is a disclosure of real checkboxes; the form's Apply submits the URL the script would push.
  await page.locator("#status-filter > summary").click();
  await page.locator("#status-filter").getByRole("checkbox", { name: "Pending", exact: true }).check();
  await page.locator("#status-filter").getByRole("checkbox", { name: "Completed", exact: true }).check();
  await page.getByLabel("Currency").selectOption("BTC");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/invoices\?status=pending,completed&currency=BTC$/);
  // Two statuses are answered from the console's mirror, which a fresh console fills first: reload until it has.
  await expect
    .poll(
      async () => {
        if ((await invoiceRows(page).count()) === 0) await page.reload();
        return invoiceRows(page).count();
      },
      { timeout: 150_000, intervals: [2_000] },
    )
    .toBe(20);
  expect(new Set(await column(page, STATUS_COLUMN))).toEqual(new Set(["Pending", "Completed"]));
  expect((await column(page, CRYPTO_COLUMN)).every((t) => t.trim().endsWith("BTC"))).toBe(true);
  await expect(page.locator("#status-filter > summary")).toHaveText("Pending, Completed");

  // Sort: the header is a link to the same view sorted by it, high to low first.
  const amountHeader = page.getByRole("columnheader", { name: /Amount \(EUR\)/ });
  await amountHeader.getByRole("link").click();
  await expect(page).toHaveURL(/sort_by=fiat_amount/);
  await expect(amountHeader).toHaveAttribute("aria-sort", "descending");
  const amounts = euros(await column(page, AMOUNT_COLUMN));
  expect(amounts.every((a, i) => i === 0 || amounts[i - 1] >= a)).toBe(true);

  // Pages are links.
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(invoiceRange(page)).toHaveText(/^21–40 of /);
  await page.getByRole("link", { name: "Last page" }).click();
  await expect(invoiceRows(page).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  const total = (await invoiceRange(page).innerText()).split(" of ")[1];
  await expect(invoiceRange(page)).toHaveText(new RegExp(`–${total} of ${total}$`));

  // The page size is a form too.
  await page.getByLabel("Rows per page").selectOption("50");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/page_size=50/);
  await expect(page).not.toHaveURL(/page=\d/);
  await expect(invoiceRange(page)).toHaveText(/^1–50 of /);

  // Open an invoice from the list: the row's link is a plain link, and the server answers with its page.
  const link = invoiceRows(page)
    .first()
    .getByRole("link", { name: /^Open invoice/ });
  const id = (await link.getAttribute("title"))!;
  await link.click();
  await expect(page).toHaveURL((url) => url.pathname === `/invoices/${encodeURIComponent(id)}`);
  expect(await (await page.request.get(`/invoices/${encodeURIComponent(id)}`)).text()).toContain(id);
});

// No loading boundary streams the invoice page behind a skeleton that only script swaps in.
test("the invoice page shows the invoice without script", async ({ page }) => {
  await page.goto("/invoices?status=completed");
  await invoiceRows(page)
    .first()
    .getByRole("link", { name: /^Open invoice/ })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
  await expect(page.getByRole("link", { name: "← All invoices" })).toBeVisible();
});

test("a search, a date preset and reset work with the form; values that do not parse are said", async ({ page }) => {
  await page.goto("/invoices?status=bogus&page=abc");
  const notice = page.getByTestId("list-url-notice");
  await expect(notice).toContainText("“bogus” is not a status; showing all statuses.");
  await expect(notice).toContainText("“abc” is not a page number; showing page 1.");
  await expect(invoiceRows(page)).toHaveCount(20);

  await page.getByLabel("Created").selectOption("7d");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/invoices\?created=7d$/);
  await expect(notice).toHaveCount(0);
  await page.getByRole("link", { name: "Reset filters" }).click();
  await expect(page).toHaveURL(/\/invoices$/);

  // "Open by invoice or order id" without script searches the list for what was typed.
  const orderId = (await invoiceRows(page).first().locator("td:nth-child(3)").innerText()).trim();
  await page.getByLabel("Open by invoice or order id").fill(orderId);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${orderId}`));
  await expect(invoiceRows(page).first()).toContainText(orderId);

  // A page past the end links to the last page.
  await page.goto("/invoices?page=9999");
  await page.getByRole("link", { name: "Go to the last page" }).click();
  await expect(invoiceRows(page).first()).toBeVisible();
});

test("Export is a link that downloads the view as CSV; Save view says it needs script", async ({ page }) => {
  await page.goto("/invoices?status=expired&currency=BTC");
  const exportLink = page.getByRole("link", { name: "Export" });
  await expect(exportLink).toHaveAttribute("href", /^\/api\/invoices\/export\?.*status=expired.*&format=csv$/);
  const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^invoices_expired_btc.*\.csv$/);
  const text = (await (await download.createReadStream()).toArray()).join("");
  const rows = text.trim().split("\r\n").slice(1);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row).toMatch(/,expired,.*,BTC,/);
  await expect(page.getByRole("button", { name: "Save view" })).toHaveAttribute("title", "Saving a view needs JavaScript");
});
