import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { divideDecimal, formatDecimal } from "../lib/contract/money";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";
import { invoiceRows, signIn } from "./fixtures";

/**
 * The rates panel on the embedded sandbox (every currency, the converter both ways, the shell's strip, the
 * invoice page's "worth today"), and on a provider that starts answering 429: the stale banner, its
 * countdown, and the last values staying on screen. SCREENSHOTS=1 also saves screenshots into
 * screenshots-tmp/ (git-ignored) for a person to look at.
 */
const SANDBOX_CURRENCIES = ["Bitcoin", "Ether", "Tether USD (TRC-20)", "USD Coin (ERC-20)", "Litecoin", "Solana", "Dogecoin"];
const SHOTS = process.env.SCREENSHOTS ? path.resolve("screenshots-tmp") : null;
const SIZES = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
];

async function shots(page: Page, name: string, go: () => Promise<void>) {
  if (!SHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    for (const size of SIZES) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: size.width, height: size.height });
      await go();
      await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}-${size.name}.png`), fullPage: true });
    }
  }
}

const euros = (text: string) => Number(text.replace(/[^\d.]/g, ""));

test.describe("on the embedded sandbox", () => {
  test("the panel shows every currency with its rate and change, and the shell's strip shows rates", async ({ page }) => {
    await signIn(page, "viewer", "/rates");
    await expect(page.getByRole("heading", { name: "Rates", level: 1 })).toBeVisible();
    const rows = invoiceRows(page);
    await expect(rows).toHaveCount(SANDBOX_CURRENCIES.length);
    for (const name of SANDBOX_CURRENCIES) await expect(rows.filter({ has: page.getByText(name, { exact: true }) })).toHaveCount(1);
    // At a glance to the cent, and four significant figures below €1; the exact figure in the title.
    await expect(page.getByTestId("rate-BTC")).toHaveText(/^€[\d,]+\.\d{2}$/);
    await expect(page.getByTestId("rate-BTC")).toHaveAttribute("title", /^Exactly €[\d,]+\.\d+$/);
    await expect(page.getByTestId("rate-DOGE")).toHaveText(/^€0\.0*[1-9]\d{0,3}$/);
    await expect(page.getByTestId("rates-updated")).toHaveText(/Updated \d+ s ago\./);
    await expect(page.getByTestId("rates-strip")).toContainText("BTC");
    await page.getByRole("button", { name: "Refresh rates" }).click();
    await expect(rows).toHaveCount(SANDBOX_CURRENCIES.length);

    // On a phone the panel and the strip fit: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId("rates-strip")).toContainText("BTC");
    expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
    await page.setViewportSize({ width: 1280, height: 720 });
    // The strip's place is drawn with the page, so the page does not move when the rates come.
    const drawn = await (await page.request.get("/invoices")).text();
    expect(drawn).toMatch(/<aside aria-label="Rates">.*?<div class="h-8">/);
    await page.goto("/invoices");
    const before = await page.locator("main").evaluate((main) => main.getBoundingClientRect().top);
    await expect(page.getByTestId("rates-strip")).toContainText("BTC");
    expect(await page.locator("main").evaluate((main) => main.getBoundingClientRect().top)).toBe(before);
    await shots(page, "rates", async () => {
      await page.goto("/rates");
      await expect(page.getByTestId("rate-BTC")).toBeVisible();
    });
  });

  test("the converter works both ways, at the rate the console serves", async ({ page }) => {
    await signIn(page, "viewer", "/rates");
    const eur = page.getByLabel("EUR", { exact: true });
    const crypto = page.getByLabel("BTC", { exact: true });
    await expect(eur).toHaveValue("100");
    const rate = async () => ((await (await page.request.get("/api/rates")).json()) as { rates: Record<string, number> }).rates;

    await eur.fill("1000");
    await expect.poll(async () => Math.abs(Number(await crypto.inputValue()) - 1000 / (await rate()).BTC)).toBeLessThan(1e-8);

    await crypto.fill("2");
    await expect.poll(async () => Math.abs(Number(await eur.inputValue()) - 2 * (await rate()).BTC)).toBeLessThanOrEqual(0.005);

    await page.getByLabel("Currency").selectOption("ETH");
    const ether = page.getByLabel("ETH", { exact: true });
    await expect(ether).toHaveValue("2");
    await expect.poll(async () => Math.abs(Number(await eur.inputValue()) - 2 * (await rate()).ETH)).toBeLessThanOrEqual(0.005);

    // Nothing typed is guessed at: a comma, grouping or currency is refused with what to write.
    const error = page.getByTestId("converter-error");
    await eur.fill("1.000,50");
    await expect(error).toHaveText(
      "EUR: a comma is not read here (neither as a thousands separator nor as a decimal comma). Write 1234.50: digits and a point, no thousands separators; use a point for decimals.",
    );
    await expect(eur).toHaveAttribute("aria-invalid", "true");
    await expect(ether).toHaveValue("");
    await eur.fill("1,234");
    await expect(error).toContainText(
      "EUR: a comma is not read here. Write 1234.50: digits and a point, no thousands separators: if you mean 1 and a fraction, use a point (1.234); if you mean 1234, leave the comma out.",
    );
    await expect(ether).toHaveValue("");
    await eur.fill("1 234,5");
    await expect(error).toContainText("EUR: a comma is not read here");
    await ether.fill("€5");
    await expect(error).toContainText("ETH: write the number alone, without a currency sign");
    await expect(eur).toHaveValue("");
    await eur.fill("1234.5");
    await expect(error).toHaveCount(0);
    await expect.poll(async () => Math.abs(Number(await ether.inputValue()) - 1234.5 / (await rate()).ETH)).toBeLessThan(1e-8);
  });

  test("an invoice shows what its crypto amount is worth today beside the invoiced EUR amount", async ({ page }) => {
    // One that may still be paid (a cancelled or expired one does not say it).
    await signIn(page, "viewer");
    await page.goto("/invoices?status=pending");
    const link = invoiceRows(page).first().getByRole("link").first();
    const href = await link.getAttribute("href");
    await page.goto(href!);
    const worth = page.getByTestId("worth-today");
    await expect(worth).toHaveText(/^worth (≈ |< )?€[\d,]+\.\d{2} today, [+\u2212]?\d+\.\d\u202f%/);
    expect(euros(await worth.locator("span").first().innerText())).toBeGreaterThan(0);
    await shots(page, "invoice-worth-today", async () => {
      await page.goto(href!);
      await expect(page.getByTestId("worth-today")).toBeVisible();
    });
  });
});

test("the archive form's preview converts at the console's cached rates", async ({ page }) => {
  await signIn(page, "finance", "/archive");
  await page.getByLabel("Currency (required)").selectOption("BTC");
  await page.getByLabel("Amount in EUR").fill("1000");
  // The cache may move to a new value between the page's read and this one: compare until they agree.
  await expect(async () => {
    // Rates are decimal strings; the preview divides them exactly and shows the rate with all its digits.
    const rate = ((await (await page.request.get("/api/rates")).json()) as { rates: Record<string, string> }).rates.BTC;
    const expected = `€${formatDecimal(rate, { minDecimals: 2 })}`;
    await expect(page.getByText(`≈ ${divideDecimal("1000", rate, 8)} BTC at 1 BTC = ${expected} (current rate)`)).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
});

test.describe("with the provider rate-limiting the console", () => {
  test.describe.configure({ mode: "serial" });
  const ADMIN = { email: "ops@rates.test", password: "a long enough password" };
  let limited = false;
  let calls = 0;
  let provider: Server;
  let consoleServer: ConsoleServer;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    provider = createServer((req, res) => {
      if ((req.url ?? "").startsWith("/api/v1/rates")) {
        calls++;
        if (limited)
          return void res.writeHead(429, { "content-type": "application/json", "retry-after": "45" }).end('{"message":"slow down"}');
        return void res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            data: [
              { code: "BTC", rate: "61234.5" },
              { code: "ETH", rate: 3180.12 },
            ],
          }),
        );
      }
      if ((req.url ?? "").startsWith("/api/v1/currencies")) {
        return void res
          .writeHead(200, { "content-type": "application/json" })
          .end('{"currencies":[{"code":"BTC","name":"Bitcoin"},{"code":"ETH","name":"Ether"}]}');
      }
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    consoleServer = await startConsoleServer({
      INVOICING_API_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/api/v1`,
      INVOICING_API_KEY: "sk_live_rates_test",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATES_TTL_SECONDS: "1",
    });
  });

  test.afterAll(async () => {
    await consoleServer?.stop();
    provider?.closeAllConnections();
    await new Promise((resolve) => provider?.close(resolve));
  });

  test("the stale banner and its countdown appear, and the last values stay", async ({ page }) => {
    await page.goto(`${consoleServer.url}/login?next=${encodeURIComponent("/rates")}`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/rates$/);
    await expect(page.getByTestId("rate-BTC")).toHaveText("€61,234.50");
    await expect(page.getByTestId("rates-stale")).toHaveCount(0);

    limited = true;
    // The panel asks again by itself (the TTL is 1 s; it waits at least 5 s); the console meets the 429.
    const banner = page.getByTestId("rates-stale");
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toContainText("limiting how often");
    const countdown = page.getByTestId("rates-countdown").first();
    await expect(countdown).toHaveText(/^\d+ s$/);
    const first = Number((await countdown.innerText()).split(" ")[0]);
    expect(first).toBeGreaterThan(30);
    expect(first).toBeLessThanOrEqual(45);
    await expect.poll(async () => Number((await countdown.innerText()).split(" ")[0]), { timeout: 5_000 }).toBeLessThan(first);
    await expect(page.getByTestId("rate-BTC")).toHaveText("€61,234.50");
    await expect(page.getByTestId("rate-ETH")).toHaveText("€3,180.12");
    await expect(page.getByTestId("rates-strip")).toContainText("Stale");

    // A manual refresh reads the cache: the provider is not asked again before its Retry-After.
    const before = calls;
    await page.getByRole("button", { name: "Refresh rates" }).click();
    await expect(banner).toBeVisible();
    expect(calls).toBe(before);

    await shots(page, "rates-stale", async () => {
      await page.goto(`${consoleServer.url}/rates`);
      await expect(page.getByTestId("rates-stale")).toBeVisible();
    });
  });
});
