import { expect, type Page, test } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";
import { invoiceRows } from "./fixtures";

/**
 * A day is a day of the business time zone (CONSOLE_TIME_ZONE) everywhere. A console started in
 * Europe/Berlin, then one in America/New_York (browser in the same zone), is given two archived invoices at
 * 00:30 and 23:30 local time on one day, outside every seeded invoice's range: each is found under its own day
 * in the table's filter (and not under the day before or after, as UTC days would put one of them), counted in
 * the overview's day, exported under that day's name; and the archive form refuses a time the clocks skip.
 */

const KEY = { "api-key": "sk_test_demo_full" };
const DAY = "2024-11-21";
const CASES = [
  { zone: "Europe/Berlin", offset: "+01:00", name: /CET/, gap: ["2026-03-29", "02:30", "02:00", "03:00"], twice: ["2025-10-26", "02:30"] },
  {
    zone: "America/New_York",
    offset: "-05:00",
    name: /EST|GMT-5/,
    gap: ["2026-03-08", "02:30", "02:00", "03:00"],
    twice: ["2025-11-02", "01:30"],
  },
] as const;

test.describe.configure({ mode: "serial" });

for (const c of CASES) {
  test.describe(c.zone, () => {
    let server: ConsoleServer;
    const run = `${Date.now().toString(36).toUpperCase()}-${c.zone.split("/")[1].toUpperCase()}`;
    const early = `TZ-${run}-0030`;
    const late = `TZ-${run}-2330`;

    test.use({ timezoneId: c.zone });

    test.beforeAll(async ({ request }) => {
      test.setTimeout(240_000);
      server = await startConsoleServer({ CONSOLE_TIME_ZONE: c.zone });
      for (const [order_id, time] of [
        [early, "00:30"],
        [late, "23:30"],
      ]) {
        const response = await request.post(`${server.url}/sandbox/api/v1/archived`, {
          headers: KEY,
          data: { order_id, currency: "BTC", fiat_amount: 10, created_at: `${DAY}T${time}:00${c.offset}` },
        });
        expect(response.status(), await response.text()).toBe(201);
      }
    });

    test.afterAll(async () => {
      await server?.stop();
    });

    async function signIn(page: Page) {
      const [name, value] = server.sessions.roles.finance.split(";")[0].split(/=(.*)/s);
      await page.context().addCookies([{ name, value, url: server.url }]);
    }

    test("the table finds both invoices under their own day, shown at their local times", async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/invoices?status=archived&from=${DAY}&to=${DAY}`);
      const rows = invoiceRows(page);
      await expect(rows.filter({ hasText: early })).toHaveCount(1);
      await expect(rows.filter({ hasText: late })).toHaveCount(1);
      await expect(rows.filter({ hasText: early })).toContainText("21 Nov 2024, 00:30");
      await expect(rows.filter({ hasText: early })).toContainText(c.name);
      await expect(rows.filter({ hasText: late })).toContainText("21 Nov 2024, 23:30");
      await expect(page.getByText(`From the start of 21 Nov 2024, ${c.zone}`)).toBeVisible();

      // Neither belongs to the day before or the day after (UTC days would move one of them there).
      for (const other of ["2024-11-20", "2024-11-22"]) {
        await page.goto(`${server.url}/invoices?status=archived&from=${other}&to=${other}`);
        await expect(page.getByRole("heading", { name: "Invoices", exact: true })).toBeVisible();
        await expect(invoiceRows(page).filter({ hasText: `TZ-${run}` })).toHaveCount(0);
      }
    });

    test("the overview counts both in that day; the day before holds neither", async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/overview?period=custom&from=${DAY}&to=${DAY}`);
      await expect(page.getByTestId("period-range")).toContainText(`21 Nov 2024 (days in ${c.zone}`);
      const archived = page.locator('a[data-status="archived"]').getByTestId("status-count");
      await expect(archived).toHaveText("2");
      await page.goto(`${server.url}/overview?period=custom&from=2024-11-20&to=2024-11-20`);
      await expect(page.getByTestId("period-range")).toContainText("20 Nov 2024 (days in");
      await expect(archived).toHaveText("0");
    });

    test("the export of that day is named after it", async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/invoices?status=archived&from=${DAY}&to=${DAY}`);
      await expect(invoiceRows(page).filter({ hasText: early })).toHaveCount(1);
      await page.getByRole("button", { name: "Export", exact: true }).click();
      const download = page.waitForEvent("download");
      await page.getByRole("menuitem", { name: "Export CSV", exact: true }).click();
      expect((await download).suggestedFilename()).toBe(`invoices_archived_${DAY}_${DAY}.csv`);
    });

    test("the archive form refuses a time the clocks skip and says which of a repeated time it records", async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/archive`);
      await expect(page.getByRole("heading", { name: "Record archived invoices" })).toBeVisible();
      await page.getByLabel("Order id (required)").fill(`TZ-${run}-GAP`);
      await page.getByLabel("Currency (required)").selectOption("BTC");
      await page.getByLabel("Amount in EUR").fill("10");
      const [date, time, from, to] = c.gap;
      await page.getByLabel("Created on").fill(date);
      await page.getByLabel(/^Time/).fill(time);
      await expect(page.getByText(`${date} ${time} does not exist in ${c.zone}: clocks go from ${from} to ${to}`)).toBeVisible();
      await page.getByRole("button", { name: "Record archived invoice" }).click();
      await expect(page).toHaveURL(/\/archive/);
      await expect(page.getByText(`${date} ${time} does not exist in ${c.zone}`)).toBeVisible();
      const nothing = await page.request.get(
        `${server.url}/sandbox/api/v1/invoices?status=archived&page_size=100&created_after=${date}T00:00:00Z`,
        { headers: KEY },
      );
      expect(((await nothing.json()) as { items: { order_id: string }[] }).items.map((i) => i.order_id)).not.toContain(`TZ-${run}-GAP`);

      const [twiceDate, twiceTime] = c.twice;
      await page.getByLabel("Created on").fill(twiceDate);
      await page.getByLabel(/^Time/).fill(twiceTime);
      await expect(page.getByText(`${twiceDate} ${twiceTime} happens twice in ${c.zone} (clocks go back): the first one`)).toBeVisible();
    });
  });
}
