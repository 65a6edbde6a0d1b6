import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";

/**
 * `npm run screenshots` (playwright.config.ts' "screenshots" project, not part of `npm test`): the main pages,
 * at 390 and 1440 px, light and dark, for a person to look at, in screenshots/ (git-ignored). It stops
 * where a page does not arrive or scrolls sideways on a phone, so no picture of a broken page is taken.
 */
const SHOTS = "screenshots";
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

async function ids(page: Page, baseURL: string): Promise<{ paid: string; archived: string }> {
  const list = await page.request.get("/api/invoices?status=completed&page_size=100");
  const items = (await list.json()).items as { invoice_id: string; payment?: { transactions?: unknown[] } | null }[];
  const paid = (items.find((i) => (i.payment?.transactions?.length ?? 0) > 1) ?? items[0]).invoice_id;
  const answer = await page.request.post("/api/archived", {
    headers: { origin: baseURL, "content-type": "application/json" },
    data: {
      order_id: `SHOT-${Date.now()}`,
      order_name: "Archived for the screenshot",
      crypto_amount: 0.0125,
      currency: "BTC",
      created_at: "2025-01-15",
    },
  });
  return { paid, archived: (await answer.json()).invoice_id };
}

test("screenshots of the changed pages, both widths, light and dark", async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  await signIn(page, "admin");
  const { paid, archived } = await ids(page, baseURL!);
  const visits: [string, string, () => Promise<void>][] = [
    ["invoice-paid", `/invoices/${paid}`, () => expect(page.getByRole("region", { name: "Blockchain transactions" })).toBeVisible()],
    ["invoice-archived", `/invoices/${archived}`, () => expect(page.getByText("Recorded as an archived invoice")).toBeVisible()],
    [
      "invoice-404",
      "/invoices/invoice_00000000-0000-7000-8000-000000000000",
      () => expect(page.getByText("No invoice has this id")).toBeVisible(),
    ],
    ["users", "/users", () => expect(page.getByRole("table", { name: "Users" })).toBeVisible()],
    ["overview", "/overview", () => expect(page.getByTestId("period-range")).toBeVisible()],
    [
      "archive-csv",
      "/archive",
      async () => {
        await page.getByRole("tab", { name: "Import a CSV" }).click();
        await page.locator("#archive-csv").setInputFiles({
          name: "shot.csv",
          mimeType: "text/csv",
          buffer: Buffer.from("order_id,fiat_amount,fiat_currency,currency\nSHOT-1,10.00,EUR,BTC\nSHOT-2,12.00,EUR,XYZ\n"),
        });
        await expect(page.getByRole("table", { name: "Rows with problems" })).toBeVisible();
      },
    ],
  ];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const [name, where, ready] of visits) {
        await page.goto(where);
        await ready();
        await page.waitForLoadState("networkidle");
        if (size.width === 390)
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), name).toBe(true);
        await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}-${size.width}.png`), fullPage: true });
      }
    }
  }
});
