import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import Big from "big.js";
import Papa from "papaparse";
import { chooseStatuses, invoiceRange, invoiceRows, signIn, statusFilter, untilHydrated, untilInteractive } from "./fixtures";

/*
 * The console's own views as people use them: finance combines several statuses and sees the view's exact totals, equal to its
 * export; support selects rows and cancels them with one reason, and each invoice's timeline says so.
 */

/** The totals line once the mirror has filled: "86 invoices", and each figure after it. */
async function totals(page: Page): Promise<{ count: number; figures: string[] }> {
  const line = page.getByRole("region", { name: "Totals of this view" });
  await expect(line).toContainText(/as of/, { timeout: 120_000 });
  const count = Number((await page.getByTestId("totals-count").innerText()).split(" ")[0].replace(/,/g, ""));
  const figures = (await line.locator("span.tabular-nums").allInnerTexts()).map((t) => t.replace("·", "").trim());
  return { count, figures };
}

test("finance shows pending and partly paid invoices of the last 12 months, and the totals equal the export's sums", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "finance");
  await page.goto("/invoices?created=12m");
  await untilInteractive(page);
  await chooseStatuses(page, ["Pending", "Partly paid"]);
  await expect(page).toHaveURL(/status=pending,paid_partial/);
  await expect(statusFilter(page)).toHaveText("Pending, Partly paid");
  const { count, figures } = await totals(page);
  expect(count).toBeGreaterThan(0);
  await expect(invoiceRange(page)).toContainText(`of ${count.toLocaleString("en")}`);
  expect(new Set(await invoiceRows(page).locator("td:nth-child(5)").allInnerTexts())).toEqual(new Set(["Pending", "Partly paid"]));

  await page.getByRole("button", { name: "Export", exact: true }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export CSV", exact: true }).click();
  const rows = Papa.parse<Record<string, string>>(readFileSync(await (await download).path(), "utf8"), {
    header: true,
    skipEmptyLines: true,
  }).data;
  expect(rows).toHaveLength(count);
  expect(new Set(rows.map((r) => r.status))).toEqual(new Set(["pending", "paid_partial"]));
  // The EUR total on screen is the exact sum of the file's amounts.
  const eur = rows.reduce((sum, r) => sum.plus(r.fiat_amount || 0), new Big(0));
  const shown = figures.find((f) => f.startsWith("€"))!;
  expect(new Big(shown.replace(/[€,]/g, "")).eq(eur)).toBe(true);
  for (const code of new Set(rows.map((r) => r.currency))) {
    const sum = rows.filter((r) => r.currency === code).reduce((s, r) => s.plus(r.crypto_amount || 0), new Big(0));
    const figure = figures.find((f) => f.endsWith(` ${code}`))!;
    expect(new Big(figure.replace(` ${code}`, "").replace(/,/g, "")).eq(sum), code).toBe(true);
  }
});

test("a text search inside the list narrows the view and keeps the other filters", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "viewer");
  await page.goto("/invoices?status=completed");
  await untilInteractive(page);
  const orderId = (await invoiceRows(page).first().locator("td:nth-child(3)").innerText()).trim();
  await page.getByLabel("Search in list").fill(orderId);
  await page.getByLabel("Search in list").press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${orderId}`));
  await expect(invoiceRows(page)).toHaveCount(1);
  await expect(invoiceRows(page).first()).toContainText(orderId);
  expect((await totals(page)).count).toBe(1);
});

test("support selects three partly paid invoices and cancels them with one reason: each waits for approval, and each timeline says so", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "support");
  // From the middle of the ~120 partly paid ones: other journeys take the oldest pending, new and partly paid.
  await page.goto("/invoices?status=paid_partial&sort_by=fiat_amount&sort_order=desc&page=2");
  await untilInteractive(page);
  const rows = invoiceRows(page);
  const picked: string[] = [];
  for (let i = 0; i < 3; i++) {
    const box = rows.nth(i).getByRole("checkbox");
    await untilHydrated(box);
    await box.check();
    picked.push((await rows.nth(i).locator("td:nth-child(2) a").getAttribute("title"))!);
  }
  await expect(page.getByTestId("selection-count")).toHaveText("3 selected");

  await page.getByRole("button", { name: "Cancel invoices…" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Cancel 3 invoices?");
  await expect(dialog).toContainText("Now: 3 Partly paid.");
  // Partly paid, so each has received crypto: how much, its worth, and that cancelling keeps it.
  await expect(dialog).toContainText(
    /All 3 have received crypto: .+, ≈ €[\d.,]+\. Cancelling does not send it back: refunds are arranged outside the console\./,
  );
  const reason = `Orders voided in bulk ${Date.now()}`;
  await dialog.getByLabel(/Reason/).fill(reason);
  await dialog.getByRole("button", { name: "Cancel 3 invoices" }).click();
  // Having received crypto, each cancel waits for a second person's approval (the transition policy), one
  // request an invoice: none is sent yet.
  await expect(page.getByTestId("bulk-progress")).toHaveText(/Bulk cancel done: 0 cancelled, 3 waiting for approval\./, {
    timeout: 30_000,
  });

  for (const id of picked) {
    await page.goto(`/invoices/${encodeURIComponent(id)}`);
    await expect(page.getByRole("heading", { level: 1 }).getByText("Partly paid")).toBeVisible();
    await expect(page.getByTestId("waiting-for-approval")).toContainText(
      `support@example.com asked to set this invoice to Cancelled: “${reason}”`,
    );
    await expect(
      page
        .getByRole("list", { name: "Invoice timeline" })
        .getByRole("listitem")
        .filter({ hasText: "Approval asked to change from Partly paid to Cancelled" }),
    ).toContainText(reason);
  }

  // Nothing left waiting for the journeys after this one: support takes the requests back.
  const { items } = (await (await page.request.get("/api/approvals?state=pending")).json()) as {
    items: { id: string; invoice_id: string }[];
  };
  const ours = items.filter((a) => picked.includes(a.invoice_id));
  expect(ours).toHaveLength(3);
  for (const approval of ours) {
    const withdrawn = await page.request.post(`/api/approvals/${approval.id}/withdraw`, {
      data: { reason: "Only the bulk journey's check" },
      headers: { origin: baseURL ?? "" },
    });
    expect(withdrawn.ok()).toBe(true);
  }
});
