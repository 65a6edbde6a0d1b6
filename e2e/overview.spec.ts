import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { formatIsoDay } from "../lib/contract/format-date";
import { invoiceRange, invoiceRows, signIn, statusFilter } from "./fixtures";

/** Finance starts the day on the overview: its counts are the table's totals, and its links open those views. */

const STATUS_COLUMN = 5; // after the selection checkbox
const number = (text: string) => Number(text.replace(/[^0-9]/g, ""));
const card = (page: Page, name: string) => page.getByRole("region", { name });

/** The table's total for the view it shows: "1–20 of 2,013", or 0 when it says nothing matches. */
async function tableTotal(page: Page): Promise<number> {
  const range = invoiceRange(page);
  const empty = page.getByText("No invoices match these filters").filter({ visible: true });
  await expect(range.or(empty).first()).toBeVisible();
  if (await empty.isVisible()) return 0;
  return number((await range.innerText()).split(" of ")[1]);
}

/** Each status link of the counts card: its text, count and where it leads. */
async function statusLinks(page: Page): Promise<{ status: string; label: string; count: number; href: string }[]> {
  const links = card(page, "Invoices by status").locator("a[data-status]");
  await expect(links).toHaveCount(7);
  return Promise.all(
    (await links.all()).map(async (link: Locator) => ({
      status: (await link.getAttribute("data-status"))!,
      label: (await link.locator("[data-status]").innerText()).trim(),
      count: number(await link.getByTestId("status-count").innerText()),
      href: (await link.getAttribute("href"))!,
    })),
  );
}

// Signed in through the table, the known-fast landing, so a cold server's first overview is not timed by sign-in.
test.beforeEach(async ({ page }) => signIn(page, "viewer", "/invoices"));

test("`/` opens the overview, first in the navigation", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  if (await nav.isVisible()) await expect(nav.getByRole("link").first()).toHaveText("Overview");
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
});

test("every count equals the table's total for the same filter, and its link opens that view", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/overview?period=90d");
  const links = await statusLinks(page);
  const total = number(await card(page, "Invoices by status").getByTestId("status-total").innerText());
  expect(links.reduce((sum, l) => sum + l.count, 0)).toBe(total);
  expect(total).toBeGreaterThan(100);

  for (const link of links) {
    expect(link.href).toBe(`/invoices?status=${link.status}&created=90d`);
    await page.goto(link.href);
    expect(await tableTotal(page), link.status).toBe(link.count);
    if (link.count > 0)
      expect(new Set(await invoiceRows(page).locator(`td:nth-child(${STATUS_COLUMN})`).allInnerTexts())).toEqual(new Set([link.label]));
  }

  // The card's link itself, as a person clicks it: the table with the status filter and the period.
  await page.goto("/overview?period=90d");
  const completed = links.find((l) => l.status === "completed")!;
  await card(page, "Invoices by status").locator('a[data-status="completed"]').click();
  await expect(page).toHaveURL(/\/invoices\?status=completed&created=90d$/);
  await expect(statusFilter(page)).toHaveText("Completed");
  expect(await tableTotal(page)).toBe(completed.count);
});

test("a custom period: counts equal the table's for the same days", async ({ page }) => {
  await page.goto("/overview");
  const to = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
  const form = page.getByRole("form", { name: "Custom period" });
  await form.getByLabel("From").fill(from);
  await form.getByLabel("To").fill(to);
  await form.getByRole("button", { name: "Show period" }).click();
  await expect(page).toHaveURL(new RegExp(`period=custom&from=${from}&to=${to}`));
  // The overview writes every date one way, the console's: "5 Jan 2026".
  await expect(page.getByTestId("period-range")).toContainText(`${formatIsoDay(from)} to ${formatIsoDay(to)}`);

  const links = await statusLinks(page);
  const completed = links.find((l) => l.status === "completed")!;
  expect(completed.href).toBe(`/invoices?status=completed&from=${from}&to=${to}`);
  await page.goto(completed.href);
  expect(await tableTotal(page)).toBe(completed.count);

  // The chart's table counts the same completed invoices.
  await page.goto(`/overview?period=custom&from=${from}&to=${to}`);
  const volume = card(page, "Completed volume");
  await expect(volume.getByTestId("volume-chart").locator("svg").first()).toBeVisible();
  await volume.getByText("Show as a table").click();
  const counts = await volume.locator("tbody tr td:nth-child(2)").allInnerTexts();
  expect(counts.reduce((sum, c) => sum + number(c), 0)).toBe(completed.count);
  await expect(volume.getByTestId("volume-summary")).toContainText(`from ${completed.count.toLocaleString("en-GB")} completed invoices`);
});

test("a custom period that cannot be shown says why, and shows 30 days", async ({ page }) => {
  await page.goto("/overview?period=custom&from=2026-03-02&to=2026-03-01");
  await expect(page.getByRole("alert").filter({ hasText: "The first day of the custom period is after its last day." })).toBeVisible();
  await expect(page.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "page");
});

test("the attention queue lists partly paid and long-pending invoices, oldest first, each opening the invoice", async ({ page }) => {
  await page.goto("/overview");
  const queue = card(page, "Needs attention");
  const items = queue.getByRole("list", { name: /oldest first/ }).getByRole("link");
  await expect(items.first()).toBeVisible();
  const statuses = await items.locator("[data-status]").allInnerTexts();
  expect(new Set(statuses).size).toBeGreaterThan(0);
  for (const s of statuses) expect(["Partly paid", "Pending"]).toContain(s.trim());
  const dates = (await items.locator("span:last-child").allInnerTexts()).map((d) => Date.parse(`${d} UTC`));
  expect(dates).toEqual([...dates].sort((a, b) => a - b));

  const first = items.first();
  const href = (await first.getAttribute("href"))!;
  expect(href).toMatch(/^\/invoices\/invoice_/);
  const status = statuses[0].trim();
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
  await expect(page.locator("main [data-status]").first()).toHaveText(status);

  // "N partly paid" opens the table of partly paid invoices, oldest first, with that total.
  await page.goto("/overview");
  const partly = queue.getByRole("link", { name: /partly paid$/ });
  const count = number(await partly.innerText());
  await partly.click();
  await expect(page).toHaveURL(/\/invoices\?status=paid_partial&sort_order=asc$/);
  expect(await tableTotal(page)).toBe(count);

  // "N pending since before yesterday" opens exactly those: pending, To the day before yesterday.
  await page.goto("/overview");
  const pending = queue.getByRole("link", { name: /pending since before yesterday$/ });
  const waiting = number(await pending.innerText());
  await pending.click();
  await expect(page).toHaveURL(/\/invoices\?status=pending&to=\d{4}-\d{2}-\d{2}&sort_order=asc$/);
  expect(await tableTotal(page)).toBe(waiting);
});

test("by week or by day; the period and the grouping live in the URL", async ({ page }) => {
  await page.goto("/overview?period=90d");
  const volume = card(page, "Completed volume");
  await expect(volume.getByRole("link", { name: "By week" })).toHaveAttribute("aria-current", "true");
  await volume.getByRole("link", { name: "By day" }).click();
  await expect(page).toHaveURL(/period=90d&bucket=day/);
  await expect(volume.getByRole("link", { name: "By day" })).toHaveAttribute("aria-current", "true");
  await volume.getByText("Show as a table").click();
  await expect(volume.locator("tbody tr")).toHaveCount(90);
  await page.getByRole("link", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\/overview\?period=7d$/);
  await volume.getByText("Show as a table").click();
  await expect(volume.locator("tbody tr")).toHaveCount(7);
});

test("light and dark, desktop and phone: axe finds nothing serious, nothing scrolls sideways", async ({ page }) => {
  test.setTimeout(120_000);
  const dir = path.join(process.cwd(), "screenshots-tmp");
  mkdirSync(dir, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.goto("/overview");
      await expect(card(page, "Completed volume").getByTestId("volume-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
      await expect(card(page, "Needs attention").getByRole("list")).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      const serious = results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect(serious, `${scheme} ${size.width}`).toEqual([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth),
        `${scheme} ${size.width} scrolls sideways`,
      ).toBe(false);
      await page.screenshot({ path: path.join(dir, `overview-${scheme}-${size.width}.png`), fullPage: true });
    }
  }
});

test("the chart's code loads only on the overview", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "script") scripts.push(r.url());
  });
  await page.goto("/invoices");
  await expect(invoiceRows(page).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  const before = new Set(scripts);
  await page.goto("/overview");
  await expect(card(page, "Completed volume").getByTestId("volume-chart").locator("svg").first()).toBeVisible();
  const chartChunks = [];
  for (const url of scripts.filter((u) => !before.has(u))) {
    const body = await (await page.request.get(url)).text();
    if (body.includes("recharts")) chartChunks.push(url);
  }
  expect(chartChunks.length).toBeGreaterThan(0);
  for (const url of before) expect(await (await page.request.get(url)).text(), url).not.toContain("recharts-bar-rectangle");
});

test("with the Overview link the admin's header still fits from 1024 px, where the links appear", async ({ page, context }) => {
  await context.clearCookies();
  await signIn(page, "admin", "/invoices");
  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/overview");
    const nav = page.getByRole("navigation", { name: "Main" });
    // Overview, Invoices, Rates, Archive, Approvals, Activity, API reference, Webhooks, Users.
    await expect(nav.getByRole("link")).toHaveCount(9);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth),
      `${width} px scrolls sideways`,
    ).toBe(false);
    const header = await page.locator("header").boundingBox();
    expect(header!.height, `${width} px header on one line`).toBeLessThan(70);
    await page.screenshot({ path: path.join(process.cwd(), "screenshots-tmp", `overview-admin-header-${width}.png`) });
  }
});
