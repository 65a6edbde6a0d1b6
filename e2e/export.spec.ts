import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import Papa from "papaparse";
import { invoiceRange, invoiceRows, signIn, untilInteractive } from "./fixtures";

/** Finance exports exactly what the table shows: every matching invoice, in the table's order. */

const ORDER_COLUMN = 3; // after the selection checkbox
const today = () => new Date().toISOString().slice(0, 10);

test.beforeEach(async ({ page }) => signIn(page, "viewer"));

/** The table's total ("1–20 of 412") and its first page's order ids. */
async function tableView(page: Page, url: string): Promise<{ total: number; orderIds: string[] }> {
  await page.goto(url);
  await expect(invoiceRows(page).first()).toBeVisible();
  await untilInteractive(page);
  const total = Number((await invoiceRange(page).innerText()).split(" of ")[1].replace(/,/g, ""));
  const orderIds = (await invoiceRows(page).locator(`td:nth-child(${ORDER_COLUMN})`).allInnerTexts()).map((t) => t.trim());
  return { total, orderIds };
}

async function exportAs(page: Page, item: "Export CSV" | "Export CSV for Excel" | "Export JSON") {
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: item, exact: true }).click();
  return download;
}

test("Export CSV downloads every invoice of the filtered, sorted table, in its order", async ({ page }) => {
  const view = await tableView(page, "/invoices?status=completed&sort_by=fiat_amount&sort_order=asc");
  // More than one provider page (100), so the walk is part of what is compared.
  expect(view.total).toBeGreaterThan(100);

  const download = await exportAs(page, "Export CSV");
  expect(download.suggestedFilename()).toBe(`invoices_completed_until_${today()}.csv`);
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 3).toString("hex")).not.toBe("efbbbf");
  const { data, meta } = Papa.parse<Record<string, string>>(bytes.toString("utf8"), { header: true, skipEmptyLines: true });
  expect(meta.fields?.slice(0, 4)).toEqual(["invoice_id", "order_id", "order_name", "status"]);
  expect(data).toHaveLength(view.total);
  expect(data.slice(0, view.orderIds.length).map((r) => r.order_id)).toEqual(view.orderIds);
  expect(new Set(data.map((r) => r.status))).toEqual(new Set(["completed"]));
  const amounts = data.map((r) => Number(r.fiat_amount));
  expect(amounts.every((a, i) => i === 0 || amounts[i - 1] <= a)).toBe(true);
  await expect(page.getByTestId("export-outcome")).toHaveText(
    `Exported ${view.total.toLocaleString("en")} invoices to invoices_completed_until_${today()}.csv.`,
  );
});

test("Export JSON of a date range, and CSV for Excel starts with a byte order mark", async ({ page }) => {
  const view = await tableView(page, "/invoices?currency=BTC&from=2025-01-01&to=2026-12-31&sort_by=created_at&sort_order=asc");
  const json = JSON.parse(readFileSync(await (await exportAs(page, "Export JSON")).path(), "utf8"));
  expect(json).toMatchObject({
    complete: true,
    row_count: view.total,
    export: { total_records: view.total, filter: { currency: "BTC", sort_by: "created_at", sort_order: "asc" } },
  });
  expect(json.items.slice(0, view.orderIds.length).map((i: { order_id: string }) => i.order_id)).toEqual(view.orderIds);

  const excel = await exportAs(page, "Export CSV for Excel");
  expect(excel.suggestedFilename()).toMatch(/^invoices_all_btc_2025-01-01_(2026-\d\d-\d\d)_excel\.csv$/);
  expect(
    readFileSync(await excel.path())
      .subarray(0, 3)
      .toString("hex"),
  ).toBe("efbbbf");
});

test("the export shows rows so far of the total, and Cancel stops it without saving", async ({ page }) => {
  const view = await tableView(page, "/invoices");
  // A slow connection, so the export is still running when Cancel is pressed.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: 40_000, uploadThroughput: -1 });
  let downloaded = false;
  page.on("download", () => (downloaded = true));

  await page.getByRole("button", { name: "Export", exact: true }).click();
  await page.getByRole("menuitem", { name: "Export JSON" }).click();
  const progress = page.getByTestId("export-progress");
  await expect(progress).toHaveText(new RegExp(`^Exporting JSON: [1-9][\\d,]* of ${view.total.toLocaleString("en")} invoices$`), {
    timeout: 15_000,
  });
  await expect(page.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel export" }).click();
  await expect(page.getByTestId("export-outcome")).toHaveText("Export cancelled; nothing was saved.");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  expect(downloaded).toBe(false);
});
