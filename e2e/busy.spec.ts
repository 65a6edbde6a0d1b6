import { expect, type Page, test } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";
import { type SecondProvider, startSecondProvider } from "../test/second-provider";
import { invoiceRows, untilInteractive } from "./fixtures";

/**
 * Overload is shed, not queued. A console allowed one call to its provider at a time (UPSTREAM_MAX_CONCURRENCY=1)
 * whose one slot is held by a call the provider does not answer (test/second-provider.ts, `hold()`): the
 * invoice list's view is shed with a fast 503 and Retry-After, the page says it is busy and retrying, and once
 * the slot is free again the retry shows the invoices without anyone clicking. When that one retry is busy too,
 * the notice says so and leaves the next try to the person: it never stays on "retrying…" with nothing on its way.
 */
const ADMIN = { email: "ops@busy.test", password: "a long enough password" };
let provider: SecondProvider;
let consoleServer: ConsoleServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  provider = await startSecondProvider();
  provider.settings.slowMs = 0;
  consoleServer = await startConsoleServer({
    INVOICING_API_URL: provider.url,
    INVOICING_API_KEY: provider.key,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    UPSTREAM_MAX_CONCURRENCY: "1",
    OVERLOAD_MAX_WAIT_MS: "2000",
  });
});

test.afterAll(async () => {
  await consoleServer?.stop();
  await provider?.close();
});

const at = (path: string) => `${consoleServer.url}${path}`;

async function signIn(page: Page) {
  await page.goto(at("/login?next=%2Finvoices"));
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/invoices$/);
  await expect(invoiceRows(page)).toHaveCount(20);
}

/** Takes the console's one upstream slot with a call the provider holds until the returned function runs. */
async function saturate(page: Page): Promise<() => Promise<void>> {
  const release = provider.hold();
  const asked = provider.requests.length;
  const holding = page.request.get(at("/api/invoices/inv_slow"));
  await expect.poll(() => provider.requests.slice(asked).some((r) => r.url.endsWith("/invoices/inv_slow"))).toBe(true);
  return async () => {
    release();
    expect((await holding).status()).toBe(200);
  };
}

const busyNotice = (page: Page) => page.getByRole("status").filter({ hasText: /Busy right now, retrying/ });

test("with the console saturated, the list says it is busy and retrying, then shows the invoices by itself", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);

  const free = await saturate(page);
  // The list is rendered on the server: the page itself came back busy, and says so in its HTML.
  const document = await page.goto(at("/invoices?status=pending"));
  expect(await document!.text()).toContain("Busy right now");
  await expect(busyNotice(page)).toBeVisible();
  await expect(busyNotice(page)).toContainText(/retrying in [12] s/);

  await free();
  // Nobody clicks: the one retry after Retry-After gets the list.
  await expect(invoiceRows(page).first()).toBeVisible({ timeout: 10_000 });
  await expect(busyNotice(page)).toHaveCount(0);
  await expect(page.getByRole("alert").filter({ hasText: /Busy|could not/i })).toHaveCount(0);
  await untilInteractive(page);
});

test("an invoice page that came back busy retries once by itself and shows the invoice", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  const free = await saturate(page);
  await page.goto(at("/invoices/inv_8Hq2x"));
  await expect(page.getByRole("heading", { level: 1, name: "Busy right now" })).toBeVisible();
  await expect(busyNotice(page)).toBeVisible();
  await free();
  await expect(page.getByText("inv_8Hq2x").first()).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Busy right now" })).toHaveCount(0);
});

test("a list busy twice says it is still busy, and 'Try again now' then shows the invoices", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);

  const free = await saturate(page);
  await page.goto(at("/invoices?status=pending"));
  const notice = page.getByRole("status").filter({ hasText: /Busy right now|Still busy/ });
  await expect(notice).toContainText(/retrying in [12] s/);
  const refreshes = page.waitForRequest((request) => request.url().includes("/invoices?status=pending") && !!request.headers().rsc);
  // The one retry goes out by itself and comes back busy again.
  await refreshes;
  await expect(notice).toHaveText("Still busy. Try again in a moment.", { timeout: 10_000 });

  await free();
  await page.getByRole("link", { name: "Try again now" }).click();
  await expect(invoiceRows(page).first()).toBeVisible();
  await expect(notice).toHaveCount(0);
});
