import { type Browser, expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";

/**
 * The server's HTML and the browser's first render must agree wherever the browser is, or React
 * throws #418 ("text content does not match") and redraws the page. Each page is opened fresh in Chromium
 * set to a time zone other than the server's (UTC), and any hydration error in the console or as a page
 * error fails the test.
 */

const KEY = { "api-key": "sk_test_demo_full" };
const ZONES = ["Europe/Berlin", "America/New_York"] as const;
const HYDRATION = /hydrat|#418|#419|#423|#425|did not match|didn't match|does not match|server rendered/i;

type Collected = { errors: string[] };

function collectErrors(page: Page): Collected {
  const collected: Collected = { errors: [] };
  page.on("console", (message) => {
    if (message.type() === "error" && HYDRATION.test(message.text()))
      collected.errors.push(`${new URL(page.url()).pathname} console: ${message.text()}`);
  });
  page.on("pageerror", (error) => {
    const text = `${error.name}: ${error.message}`;
    if (HYDRATION.test(text)) collected.errors.push(`${new URL(page.url()).pathname} pageerror: ${text}`);
  });
  return collected;
}

/** An invoice with a payment (its page shows every kind of date: created, updated, paid, timeline, transactions). */
async function paidInvoiceId(page: Page): Promise<string> {
  const response = await page.request.get("/sandbox/api/v1/invoices?status=paid_partial&page_size=1", { headers: KEY });
  const items = (await response.json()).items as { invoice_id: string }[];
  expect(items.length).toBeGreaterThan(0);
  return items[0].invoice_id;
}

/** Every page stays open until the network is idle, so rates and other late data arrive while it hydrates. */
async function open(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState("networkidle");
  // Recoverable errors are reported after the commit that follows hydration.
  await page.waitForTimeout(500);
}

async function zoneContext(browser: Browser, timezoneId: string) {
  const context = await browser.newContext({ timezoneId, locale: "en-US" });
  const page = await context.newPage();
  return { context, page };
}

for (const timezoneId of ZONES) {
  test(`no hydration mismatch with the browser in ${timezoneId}: invoice, archive, list and the other pages`, async ({ browser }) => {
    test.setTimeout(180_000);
    const { context, page } = await zoneContext(browser, timezoneId);
    const seen = collectErrors(page);
    await signIn(page, "admin");
    const id = await paidInvoiceId(page);

    const invoicePage = `/invoices/${encodeURIComponent(id)}`;
    const heading = (name: string | RegExp) => async (p: Page) =>
      void (await expect(p.getByRole("heading", { name, level: 1 })).toBeVisible());
    // The invoice page twice: once right after sign-in, once with the rates already in the browser's HTTP cache.
    await open(page, invoicePage, async (p) => void (await expect(p.getByRole("list", { name: "Invoice timeline" })).toBeVisible()));
    await open(page, invoicePage, async (p) => void (await expect(p.getByTestId("worth-today")).toBeVisible()));
    await open(page, "/archive", heading("Record archived invoices"));
    await open(page, "/invoices", heading("Invoices"));
    // The shell's rates strip asks for the currencies while the list's own part (streamed after the shell) is
    // still to hydrate; a slow answer keeps that request waiting then, which must not empty the list's filter.
    await page.route("**/api/currencies", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue().catch(() => {});
    });
    for (let i = 0; i < 3; i++) await open(page, "/invoices?status=completed", heading("Invoices"));
    await page.unroute("**/api/currencies");
    await open(page, "/overview", heading(/Overview/));
    await open(page, "/rates", heading(/Rates/));
    await open(page, "/webhooks", heading(/Webhooks/));
    await open(page, "/users", heading(/Users|People/));

    expect(seen.errors, seen.errors.join("\n")).toEqual([]);

    // The times are in the business zone (CONSOLE_TIME_ZONE: UTC on this server) whatever the
    // browser's zone, in the HTML already and unchanged after hydration: the invoice page says which zone.
    const response = await page.request.get(invoicePage);
    const zone = /\bUTC\b/;
    expect(await response.text()).toMatch(new RegExp(`<time[^>]*>[^<]*${zone.source}`));
    await page.goto(invoicePage);
    await expect(page.getByRole("list", { name: "Invoice timeline" }).locator("time").first()).toHaveText(zone);
    await page.screenshot({ path: test.info().outputPath(`invoice-${timezoneId.replace("/", "-")}.png`), fullPage: true });
    await context.close();
  });
}
