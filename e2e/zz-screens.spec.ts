import { test } from "@playwright/test";
import { signIn } from "./fixtures";

const SIZES = { d: { width: 1440, height: 1000 }, m: { width: 390, height: 844 } } as const;
const csv = ["order_id,fiat_amount,currency,created_at", "SHOT-1,10,BTC,2024-05-01", "SHOT-2,-1,BTC,2024-05-01", "SHOT-3,5,XYZ12345678901,2024-05-01", "SHOT-4,7,ETH,2024-05-02"].join("\n");

for (const scheme of ["light", "dark"] as const) {
  for (const [name, size] of Object.entries(SIZES)) {
    test(`screens ${scheme} ${name}`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(size);
      await signIn(page, "finance", "/archive");
      await page.goto("/archive");
      await page.getByLabel("Order id (required)").waitFor();
      await page.screenshot({ path: `screenshots-tmp/archive-empty-${scheme}-${name}.png`, fullPage: true });
      await page.getByLabel("Order id (required)").fill("x");
      await page.getByLabel("Order id (required)").fill("");
      await page.getByLabel("Amount in EUR").fill("-1");
      await page.getByLabel("Callback URL").fill("shop");
      await page.getByLabel("Created on").fill("2999-01-01");
      await page.getByRole("button", { name: "Record archived invoice" }).click();
      await page.screenshot({ path: `screenshots-tmp/archive-errors-${scheme}-${name}.png`, fullPage: true });
      await page.reload();
      await page.getByRole("tab", { name: "Import a CSV" }).click();
      await page.locator("#archive-csv").setInputFiles({ name: "s.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByText("Checked 4 rows").waitFor();
      await page.screenshot({ path: `screenshots-tmp/archive-csv-checked-${scheme}-${name}.png`, fullPage: true });
      await page.getByRole("button", { name: /Record 2 archived/ }).click();
      await page.getByText("Import finished").waitFor();
      await page.screenshot({ path: `screenshots-tmp/archive-csv-done-${scheme}-${name}.png`, fullPage: true });
      await page.goto("/docs/api");
      await page.getByRole("heading", { name: "Record an archived invoice" }).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: `screenshots-tmp/docs-${scheme}-${name}.png` });
    });
  }
}
