import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";
import { type SecondProvider, startSecondProvider } from "../test/second-provider";
import { holdPageScripts, invoiceRows, startStatusChange, untilHydrated, untilInteractive } from "./fixtures";

/**
 * The console pointed at a provider that is not our sandbox (test/second-provider.ts): other ids, other
 * shapes, other error bodies. Finance lists and filters its invoices; the admin opens one and asks to cancel it,
 * and finance approves.
 */
const ADMIN = { email: "ops@second-provider.test", password: "a long enough password" };
let provider: SecondProvider;
let consoleServer: ConsoleServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  provider = await startSecondProvider();
  consoleServer = await startConsoleServer({
    INVOICING_API_URL: provider.url,
    INVOICING_API_KEY: provider.key,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
});

test.afterAll(async () => {
  await consoleServer?.stop();
  await provider?.close();
});

const at = (path: string) => `${consoleServer.url}${path}`;

async function signIn(page: Page, next = "/invoices") {
  await page.goto(at(`/login?next=${encodeURIComponent(next)}`));
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[?]/g, "\\?")}$`));
}

test("several statuses, text in the list and the view's totals come from the console's mirror of this provider", async ({ page }) => {
  await signIn(page, "/invoices?status=new,paid_partial&page_size=50");
  const totals = page.getByRole("region", { name: "Totals of this view" });
  await expect(totals).toContainText(/as of/, { timeout: 90_000 });
  await page.reload();
  const count = Number((await page.getByTestId("totals-count").innerText()).split(" ")[0]);
  expect(count).toBeGreaterThan(1);
  await expect(invoiceRows(page)).toHaveCount(count);
  expect(new Set(await invoiceRows(page).locator("td:nth-child(5)").allInnerTexts())).toEqual(new Set(["New", "Partly paid"]));
  // Its ids are its own: the bare number 48213 is found by the text search as well.
  await page.goto(at("/invoices?q=48213"));
  await expect(invoiceRows(page)).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Open invoice 48213" })).toBeVisible();
});

test("the API reference is this provider's: it serves no OpenAPI document, and the page says so instead of showing the sandbox's", async ({
  page,
}) => {
  await signIn(page, "/docs/api");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  await expect(page.getByText(/serves no OpenAPI document at its base URL/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "List invoices" })).toHaveCount(0);
});

test("lists the provider's invoices as they are: its ids, its statuses, a dash for an odd value", async ({ page }) => {
  await signIn(page);
  await expect(invoiceRows(page)).toHaveCount(20);
  await page.goto(at("/invoices?page_size=50"));
  await expect(invoiceRows(page)).toHaveCount(31);

  // Short ids are shown whole, long ones shortened; the link carries the full id, encoded.
  await expect(page.getByRole("link", { name: "Open invoice inv_8Hq2x" })).toHaveText("inv_8Hq2x");
  await expect(page.getByRole("link", { name: "Open invoice 48213" })).toHaveAttribute("href", "/invoices/48213");
  await expect(page.getByRole("link", { name: "Open invoice inv/2024 07" })).toHaveAttribute("href", "/invoices/inv%2F2024%2007");

  // A status the console does not know, in a neutral badge, as the provider wrote it.
  const held = invoiceRows(page).filter({ hasText: "99017" });
  await expect(held.locator('[data-status="unknown"]')).toHaveText("on_hold");
  // The odd invoice is listed: its unreadable amount and date are a dash, the rest as usual.
  const odd = invoiceRows(page).filter({ hasText: "SO-ODD" });
  await expect(odd.locator("td:nth-child(6)")).toHaveText("—");
  await expect(odd.locator("td:nth-child(8)")).toHaveText("—");
  await expect(odd.locator("td:nth-child(7)")).toContainText("LTC");
});

test("the currency filter offers the provider's currencies, however it lists them, and filters by one", async ({ page }) => {
  await signIn(page);
  const currency = page.getByLabel("Currency");
  // Keyed by code, some with a name, some without: the name falls back to the code.
  await expect(currency.locator("option")).toHaveText(["All currencies", "BTC · Bitcoin", "ETH · Ether", "USDT · USDT", "LTC · LTC"]);
  await currency.selectOption("ETH");
  await expect(page).toHaveURL(/currency=ETH/);
  await expect
    .poll(async () => {
      const cells = await invoiceRows(page).locator("td:nth-child(7)").allInnerTexts();
      return cells.length > 0 && cells.every((t) => t.trim().endsWith("ETH"));
    })
    .toBe(true);
  expect(provider.requests.some((r) => r.url.startsWith("/api/v1/invoices?") && r.url.includes("currency=ETH"))).toBe(true);
});

test("opens an invoice by clicking it: payment details of another shape, and everything else under More from the provider", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(at("/invoices?page_size=50"));
  await untilInteractive(page);
  await invoiceRows(page).filter({ hasText: "99017" }).locator("td:nth-child(4)").click();
  await expect(page).toHaveURL(/\/invoices\/48213$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Espresso machine");
  await expect(page.getByRole("heading", { level: 1 }).locator('[data-status="unknown"]')).toHaveText("on_hold");

  const transactions = page.getByRole("region", { name: "Blockchain transactions" });
  await expect(transactions.getByRole("link", { name: "0xfeedbeef01" })).toHaveAttribute(
    "href",
    "https://explorer.example/tx/0xfeedbeef01",
  );
  const more = page.getByRole("region", { name: "More from the provider" });
  await expect(more).toContainText("metadata");
  await expect(more).toContainText('"location": "Lisbon"');
  await expect(more).toContainText("transactions[0].fee");
  await page.screenshot({ path: "test-results/e2e/second-provider-invoice.png", fullPage: true });
});

test("opens an invoice by a pasted id with a slash and a space, and says so when the provider knows no such id", async ({ page }) => {
  await signIn(page);
  await untilInteractive(page);
  await page.getByLabel("Open by invoice or order id").fill("  inv/2024 07  ");
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page).toHaveURL(/\/invoices\/inv%2F2024%2007$/);
  await expect(page.getByText("inv/2024 07", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Id with a slash and a space");

  // A percent sign is the provider's, not an escape: the page decodes the path once, never twice.
  await page.goto(at("/invoices"));
  await untilInteractive(page);
  await page.getByLabel("Open by invoice or order id").fill("pct%41 x");
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Percent sign in the id");

  await page.goto(at("/invoices"));
  await untilInteractive(page);
  await page.getByLabel("Open by invoice or order id").fill("inv_nope");
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page.getByRole("heading", { name: "No invoice has this id" })).toBeVisible();
  // The not-found page (an HTTP 404, e2e/status-codes.spec.ts) names the id asked.
  await expect(page.getByText("inv_nope", { exact: true })).toBeVisible();
});

test("a slow answer: the page waits for it, then shows the invoice", async ({ page }) => {
  await signIn(page);
  provider.settings.slowMs = 4_000;
  // The page waits for the provider's answer before it sends anything, so an unknown id can still be a 404
  //; the answer comes well within UPSTREAM_TIMEOUT_MS, so no error.
  await page.goto(at(`/invoices/${encodeURIComponent("inv_slow")}`), { waitUntil: "commit" });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Slow to answer", { timeout: 15_000 });
  await expect(page.getByText("did not answer in time")).toHaveCount(0);
});

/** Finance of this console, in a browser of its own (the test session prepared for the role), on /approvals. */
async function financeOnApprovals(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const [name, value] = consoleServer.sessions.roles.finance.split(";")[0].split(/=(.*)/s);
  await context.addCookies([{ name, value, url: consoleServer.url }]);
  const page = await context.newPage();
  await page.goto(at("/approvals"));
  await expect(page.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();
  return { context, page };
}

/** Asks to cancel the invoice open on `page`: it has received crypto or is completed, so the cancel waits. */
async function askToCancel(page: Page, orderId: string, reason: string): Promise<void> {
  const cancel = await startStatusChange(page, "Cancel invoice", `Cancel invoice for order ${orderId}?`);
  await expect(cancel).toContainText("Needs approval.");
  await cancel.getByLabel("Reason (required)").fill(reason);
  await cancel.getByRole("button", { name: "Ask for approval" }).click();
  await expect(cancel).toBeHidden();
  await expect(page.getByTestId("waiting-for-approval")).toContainText(reason);
}

test("a cancel of an invoice with a short id waits for approval, and finance's approval sends it to this provider", async ({
  page,
  browser,
}) => {
  await signIn(page, "/invoices/inv_8Hq2x");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("SO-1001");
  // It has received crypto (this provider's `amount_paid`): the cancel waits for a second person.
  await askToCancel(page, "SO-1001", "Order voided (ticket 77)");
  expect(provider.invoice("inv_8Hq2x")!.status).toBe("pending");

  const finance = await financeOnApprovals(browser);
  try {
    const card = finance.page.getByRole("article", { name: "Order SO-1001", exact: true });
    await expect(card).toContainText("Order voided (ticket 77)");
    await untilHydrated(card.getByRole("button", { name: "Approve" }));
    await card.getByLabel("Your reason").fill("Checked with the shop");
    await card.getByRole("button", { name: "Approve" }).click();
    await expect(card).toHaveCount(0);
  } finally {
    await finance.context.close();
  }
  expect(provider.invoice("inv_8Hq2x")!.status).toBe("cancelled");
  await page.reload();
  await expect(
    page
      .getByRole("list", { name: "Invoice timeline" })
      .getByRole("listitem")
      .filter({ hasText: "Status changed from Pending to Cancelled" }),
  ).toContainText("Order voided (ticket 77)");
});

test("a refusal shows the provider's own words on the status, to the person who approved the change", async ({ page, browser }) => {
  // This provider will not cancel a completed invoice, and says why in its own error shape.
  provider.settings.errorStyle = "fastapi";
  await signIn(page, `/invoices/${encodeURIComponent("inv/2024 07")}`);
  // A change from Completed always needs a second person's approval: the provider hears of it only then.
  await askToCancel(page, "SO-0707", "Duplicate order");

  const finance = await financeOnApprovals(browser);
  try {
    const card = finance.page.getByRole("article", { name: "Order SO-0707", exact: true });
    await untilHydrated(card.getByRole("button", { name: "Approve" }));
    await card.getByLabel("Your reason").fill("The shop confirmed the duplicate");
    await card.getByRole("button", { name: "Approve" }).click();
    const alert = card.getByRole("alert");
    await expect(alert).toBeVisible();
    expect(provider.invoice("inv/2024 07")!.status).toBe("completed");
    await expect(alert).toContainText("A completed invoice cannot be cancelled; refund it instead", { timeout: 2_000 });
  } finally {
    await finance.context.close();
  }
});

test("'Cancel invoice' clicked before the page's scripts have loaded: the server's form cancels it", async ({ page }) => {
  await signIn(page, "/invoices");
  // The invoice page's scripts are held back until the click has been made, as on a slow connection.
  const release = await holdPageScripts(page);
  await page.goto(at(`/invoices/${encodeURIComponent("pct%41 x")}`), { waitUntil: "commit" });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Percent sign in the id");
  const cancel = await startStatusChange(page, "Cancel invoice", "Cancel invoice for order SO-PCT?");
  // The link was followed (the page's load event waits for the held scripts, so the address is read as it is).
  expect(new URL(page.url()).searchParams.get("change")).toBe("cancelled");
  release();
  await cancel.getByLabel("Reason (required)").fill("Clicked before the scripts");
  await cancel.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(cancel).toBeHidden();
  await expect(page.getByRole("list", { name: "Invoice timeline" }).getByRole("listitem").first()).toContainText(
    "Status changed from New to Cancelled",
  );
  expect(provider.invoice("pct%41 x")!.status).toBe("cancelled");
});

test("webhooks from this provider: simulate by a pasted id, its own signature scheme is kept as not verified, and the invoice's timeline shows it", async ({
  page,
}) => {
  provider.settings.webhookUrl = at("/api/webhook-inbox");
  try {
    await signIn(page, "/webhooks");
    await page.getByLabel("Invoice id").fill("inv_8Hq2x");
    await page.getByLabel("Status the webhook announces").selectOption("expired");
    await page.getByRole("button", { name: "Send webhook" }).click();
    await expect(page.getByTestId("simulation-answer")).toContainText("queued");
    await expect(page.getByTestId("simulation-answer")).toContainText("Test event queued for delivery.");

    const entry = page.getByTestId("inbox-entry").filter({ hasText: "inv_8Hq2x" }).first();
    await expect(entry).toHaveAttribute("data-verdict", "not_verified");
    await expect(entry).toContainText("another provider's scheme");

    // No deliveries extension here: the timeline shows what the inbox received instead.
    await page.goto(at("/invoices/inv_8Hq2x"));
    await expect(page.getByRole("list", { name: "Invoice timeline" })).toContainText(
      "Webhook received in the console's inbox: not verified",
    );
  } finally {
    provider.settings.webhookUrl = null;
  }
});

test("against a real provider without DATABASE_URL, an admin is told on Users that people and the audit log live in a local folder", async ({
  page,
}) => {
  await signIn(page, "/users");
  const notice = page.getByTestId("local-data-notice");
  await expect(notice).toContainText(`kept in a local folder, ${consoleServer.dataDir}`);
  await expect(notice).toContainText("Set DATABASE_URL");
});
