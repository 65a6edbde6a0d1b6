import { expect, test } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";

/**
 * While the mirror's first fill runs, a view that needs it says how far it has come, and its totals say they are
 * partial; admins see the same on the search index card. A console of its own, filling at a page every two seconds.
 */
let consoleServer: ConsoleServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  consoleServer = await startConsoleServer({ SEARCH_SYNC_PAGES_PER_SECOND: "0.5" });
});

test.afterAll(async () => {
  await consoleServer?.stop();
});

test("a view answered from the mirror says how far its first fill has come", async ({ page }) => {
  const at = (path: string) => `${consoleServer.url}${path}`;
  await page.goto(at("/login?next=%2Finvoices%3Fstatus%3Dpending%2Cpaid_partial"));
  await page.getByRole("button", { name: /Sign in as admin/ }).click();
  const totals = page.getByRole("region", { name: "Totals of this view" });
  await expect(totals).toContainText(/partial: Reading your invoices: [\d,]+ of [\d,]+/, { timeout: 30_000 });
  await page.goto(at("/users"));
  await expect(page.getByText(/^[\d,]+ of [\d,]+(, [a-z0-9 .]+ left)? \(\d+ %\)$/)).toBeVisible();
});
