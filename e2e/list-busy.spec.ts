import { expect, type Page, test } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";
import { type SecondProvider, startSecondProvider } from "../test/second-provider";
import { invoiceRows } from "./fixtures";

/**
 * The list that comes back busy retries once by itself (e2e/busy.spec.ts). When that retry is busy too (the
 * same Retry-After, so the page is the same), the notice says so and leaves the next try to the person: it
 * never stays on "retrying…" with nothing on its way.
 */
const ADMIN = { email: "ops@list-busy.test", password: "a long enough password" };
let provider: SecondProvider;
let consoleServer: ConsoleServer;

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

test("a list busy twice says it is still busy, and 'Try again now' then shows the invoices", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(at("/login?next=%2Finvoices"));
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(invoiceRows(page)).toHaveCount(20);

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
