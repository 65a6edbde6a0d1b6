import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";

/** The archive CSV import: re-reading a file, unknown currencies, and the keyboard. */

async function openCsvTab(page: Page) {
  await signIn(page, "finance");
  await page.goto("/archive");
  await expect(page.getByRole("heading", { name: "Record archived invoices" })).toBeVisible();
  await page.getByRole("tab", { name: "Import a CSV" }).click();
  await expect(page.getByRole("button", { name: "Choose a CSV file" })).toBeVisible();
}

const csv = (rows: string[]) => ({
  name: "history.csv",
  mimeType: "text/csv",
  buffer: Buffer.from(["order_id,fiat_amount,fiat_currency,currency,created_at", ...rows].join("\n")),
});

test("an unknown currency is a problem of the file check, naming what the provider accepts; the same file can be chosen again", async ({
  page,
}) => {
  await openCsvTab(page);
  const input = page.locator("#archive-csv");
  const run = Date.now();
  await input.setInputFiles(csv([`T-${run}-1,10.00,EUR,BTC,2024-03-10`, `T-${run}-2,12.00,EUR,XYZ,2024-03-10`]));
  await expect(page.getByText("Checked 2 rows: 1 ready, 1 with problems")).toBeVisible();
  const problems = page.getByRole("table", { name: "Rows with problems" });
  await expect(problems).toContainText(/currency: unknown currency XYZ; the provider accepts .*BTC/);
  await expect(page.getByRole("button", { name: "Record 1 archived invoice" })).toBeVisible();
  // Read and emptied: the same file chosen again (fixed in the meantime) fires a change and is read anew.
  await expect(input).toHaveValue("");
  await input.setInputFiles(csv([`T-${run}-1,10.00,EUR,BTC,2024-03-10`, `T-${run}-2,12.00,EUR,ETH,2024-03-10`]));
  await expect(page.getByText("Checked 2 rows: 2 ready, 0 with problems")).toBeVisible();
});

test("by keyboard: the file button is one visible Tab stop with a focus ring, then Template", async ({ page }) => {
  await openCsvTab(page);
  await page.getByRole("tab", { name: "Import a CSV" }).focus();
  const stops: { name: string; visible: boolean; outline: string }[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return {
        name: (
          el.getAttribute("aria-label") ||
          (el.matches("button, a, input, select")
            ? el.textContent
            : `${el.getAttribute("role") ?? el.tagName.toLowerCase()} (container)`) ||
          el.tagName
        ).trim(),
        visible: box.width > 2 && box.height > 2 && style.visibility !== "hidden",
        outline: style.outlineStyle,
      };
    });
    stops.push(stop);
    if (stop.name.includes("Template")) break;
  }
  // Whatever sits between the tab and the file button (the tab panel itself), every stop is visible.
  expect(stops.filter((s) => !s.visible)).toEqual([]);
  const file = stops.findIndex((s) => s.name.includes("Choose a CSV file"));
  expect(file).toBeGreaterThanOrEqual(0);
  expect(stops[file].outline).not.toBe("none");
  expect(stops[file + 1].name).toContain("Template");
});
