import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { type DemoRole, signIn, startStatusChange, untilHydrated } from "./fixtures";

/**
 * Status changes under the transition policy (lib/contract/transition-policy.ts, the defaults): what support may
 * do at once, what waits for a second person, how finance and admins decide on /approvals, and the decisions that
 * are refused (a stale request, one's own). Each journey takes invoices of its own and leaves no request waiting,
 * so the specs after it meet invoices as the seed made them.
 */

const KEY = { "api-key": "sk_test_demo_full" };

type SandboxInvoice = {
  invoice_id: string;
  order_id: string;
  status: string;
  currency: string;
  callback_url: string | null;
  payment: { amount_received: number | string | null } | null;
};

/** The requests waiting for approval now, by invoice id (read as `page`'s person, who must be signed in). */
async function waitingInvoiceIds(page: Page): Promise<Set<string>> {
  const answer = await page.request.get("/api/approvals?state=pending");
  expect(answer.ok()).toBe(true);
  const { items } = (await answer.json()) as { items: { invoice_id: string | null }[] };
  return new Set(items.map((a) => a.invoice_id).filter((id): id is string => !!id));
}

/**
 * An invoice of `status` that no request waits on, the newest first (other specs take the oldest), skipping
 * `skip` of them; `received` asks for one that has received crypto (amount_received > 0).
 */
async function invoiceOf(page: Page, status: string, { skip = 0, received = false } = {}): Promise<SandboxInvoice> {
  const answer = await page.request.get(`/sandbox/api/v1/invoices?status=${status}&page_size=100&sort_order=desc`, { headers: KEY });
  expect(answer.ok()).toBe(true);
  const { items } = (await answer.json()) as { items: SandboxInvoice[] };
  const waiting = await waitingInvoiceIds(page);
  const fitting = items.filter((i) => !waiting.has(i.invoice_id) && (!received || Number(i.payment?.amount_received ?? 0) > 0));
  expect(fitting.length, `invoices of status ${status} to choose from`).toBeGreaterThan(skip);
  return fitting[skip];
}

async function statusOf(request: APIRequestContext, invoiceId: string): Promise<string> {
  const answer = await request.get(`/sandbox/api/v1/invoices/${encodeURIComponent(invoiceId)}`, { headers: KEY });
  return ((await answer.json()) as { status: string }).status;
}

const invoicePath = (invoice: SandboxInvoice) => `/invoices/${encodeURIComponent(invoice.invoice_id)}`;

/** A second person in a browser of their own (a context with its own cookies), signed in. */
async function asPerson(browser: Browser, role: DemoRole, next: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, role, next);
  return { context, page };
}

/** The card of the request for `orderId` on /approvals. */
function requestCard(page: Page, orderId: string): Locator {
  return page.getByRole("article", { name: `Order ${orderId}`, exact: true });
}

const waitingNotice = (page: Page) => page.getByTestId("waiting-for-approval");
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const timelineItem = (page: Page, text: string) =>
  page.getByRole("list", { name: "Invoice timeline" }).getByRole("listitem").filter({ hasText: text });

/** Asks for a status by the "Change status…" dialog as `page`'s person, and sees that it waits. */
async function askToSet(page: Page, invoice: SandboxInvoice, label: string, reason: string): Promise<void> {
  await page.goto(invoicePath(invoice));
  await untilHydrated(page.getByRole("button", { name: "Change status…" }));
  const dialog = await startStatusChange(page, "Change status…", `Change the status of order ${invoice.order_id}`);
  await dialog.getByRole("radio", { name: new RegExp(`^${label} · needs approval`) }).check();
  await dialog.getByLabel("Reason (required)").fill(reason);
  await dialog.getByRole("button", { name: `Ask to set to ${label}` }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Asked for approval to set it to ${label}.` })).toBeVisible();
  await expect(waitingNotice(page)).toBeVisible();
}

test("support cancels an invoice that has received nothing at once: no approval, nothing about refunds", async ({ page }) => {
  await signIn(page, "support");
  const invoice = await invoiceOf(page, "expired");
  await page.goto(invoicePath(invoice));
  await untilHydrated(page.getByRole("button", { name: "Cancel invoice" }));
  const dialog = await startStatusChange(page, "Cancel invoice", `Cancel invoice for order ${invoice.order_id}?`);
  await expect(dialog).toContainText("The status changes from Expired to Cancelled");
  await expect(dialog).not.toContainText("Needs approval");
  await expect(dialog).not.toContainText("Cancelling does not send it back");
  await dialog.getByLabel("Reason (required)").fill("Customer ordered again under a new order (ticket 6101)");
  await dialog.getByRole("button", { name: "Cancel invoice" }).click();

  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();
  await expect(heading(page).getByText("Cancelled")).toBeVisible();
  await expect(waitingNotice(page)).toHaveCount(0);
  await expect(timelineItem(page, "Status changed from Expired to Cancelled")).toContainText("support@example.com");
  expect(await statusOf(page.request, invoice.invoice_id)).toBe("cancelled");
});

test("support's cancel of a partly paid invoice waits; finance approves it on /approvals and the timeline tells the whole story", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "support");
  const invoice = await invoiceOf(page, "paid_partial", { received: true });
  const reason = `Customer withdrew the order, rest refunded off-chain (ticket ${Date.now()})`;
  await page.goto(invoicePath(invoice));
  await untilHydrated(page.getByRole("button", { name: "Cancel invoice" }));
  const dialog = await startStatusChange(page, "Cancel invoice", `Cancel invoice for order ${invoice.order_id}?`);
  // What was received, and that the change waits for someone else, before it is asked.
  await expect(dialog).toContainText(
    /[\d.,]+ [A-Z]+ \(≈ €[\d.,]+\) has already been received for this invoice\. Cancelling does not send it back/,
  );
  await expect(dialog).toContainText("Needs approval. This invoice has received crypto");
  await dialog.getByLabel("Reason (required)").fill(reason);
  await dialog.getByRole("button", { name: "Ask for approval" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole("status").filter({ hasText: "Asked for approval to set it to Cancelled. Nothing changes until someone approves it." }),
  ).toBeVisible();
  // Not sent: still partly paid, and the page says who asked what.
  await expect(heading(page).getByText("Partly paid")).toBeVisible();
  await expect(waitingNotice(page)).toContainText("Waiting for approval");
  await expect(waitingNotice(page)).toContainText(`support@example.com asked to set this invoice to Cancelled: “${reason}”`);
  expect(await statusOf(page.request, invoice.invoice_id)).toBe("paid_partial");

  const finance = await asPerson(browser, "finance", "/overview");
  try {
    // The navigation says something waits for finance.
    const nav = finance.page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: /^Approvals \d+ waiting$/ })).toBeVisible();
    await nav.getByRole("link", { name: /^Approvals/ }).click();
    await expect(finance.page).toHaveURL(/\/approvals$/);
    const card = requestCard(finance.page, invoice.order_id);
    await expect(card).toContainText("Waiting for approval");
    await expect(card).toContainText("support@example.com");
    await expect(card).toContainText(reason);
    await untilHydrated(card.getByRole("button", { name: "Approve" }));
    await card.getByLabel("Your reason").fill("Checked with the customer: cancel it");
    await card.getByRole("button", { name: "Approve" }).click();
    // Decided: it leaves the waiting requests (the page is drawn again without it), and the page says what became of it.
    await expect(card).toHaveCount(0);
    await expect(finance.page.getByTestId("decided-notice")).toContainText(
      `Approved by finance@example.com: order ${invoice.order_id} is now Cancelled.`,
    );
  } finally {
    await finance.context.close();
  }

  expect(await statusOf(page.request, invoice.invoice_id)).toBe("cancelled");
  await page.reload();
  await expect(heading(page).getByText("Cancelled")).toBeVisible();
  await expect(waitingNotice(page)).toHaveCount(0);
  // The request, the change (sent by the approver, with the reason asked) and the approval, each with its person.
  const asked = timelineItem(page, "Approval asked to change from Partly paid to Cancelled");
  await expect(asked).toContainText("support@example.com");
  await expect(asked).toContainText(reason);
  const changed = timelineItem(page, "Status changed from Partly paid to Cancelled");
  await expect(changed).toContainText("finance@example.com");
  await expect(changed).toContainText(reason);
  const approved = timelineItem(page, "Change to Cancelled approved (asked by support@example.com)");
  await expect(approved).toContainText("finance@example.com");
  await expect(approved).toContainText("Checked with the customer: cancel it");
});

test("finance marks an invoice completed, which only another person may approve; an admin approves it", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, "finance");
  const invoice = await invoiceOf(page, "paid_partial", { received: true });
  await page.goto(invoicePath(invoice));
  // Finance may not cancel: no such button, and the dialog says who may set what.
  await untilHydrated(page.getByRole("button", { name: "Change status…" }));
  await expect(page.getByRole("button", { name: "Cancel invoice" })).toHaveCount(0);
  const dialog = await startStatusChange(page, "Change status…", `Change the status of order ${invoice.order_id}`);
  await expect(dialog.getByRole("radio", { name: /^Cancelled/ })).toBeDisabled();
  await expect(dialog.getByRole("radio", { name: /^Expired/ })).toBeDisabled();
  await expect(dialog.getByRole("radio", { name: /^New/ })).toBeDisabled();
  await expect(dialog).toContainText("Only support and admin can cancel an invoice.");
  await expect(dialog).toContainText("Only admin can set an invoice back to New.");
  await dialog.getByRole("radio", { name: /^Completed · needs approval/ }).check();
  await expect(dialog).toContainText("Needs approval. To mark an invoice completed needs a second person's approval.");
  await dialog.getByLabel("Reason (required)").fill("The rest arrived by bank transfer (statement 2026-11)");
  await dialog.getByRole("button", { name: "Ask to set to Completed" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Asked for approval to set it to Completed." })).toBeVisible();
  await expect(waitingNotice(page)).toContainText("finance@example.com asked to set this invoice to Completed");
  expect(await statusOf(page.request, invoice.invoice_id)).toBe("paid_partial");

  const admin = await asPerson(browser, "admin", "/approvals");
  try {
    const card = requestCard(admin.page, invoice.order_id);
    await expect(card).toContainText("To mark an invoice completed needs a second person's approval.");
    await untilHydrated(card.getByRole("button", { name: "Approve" }));
    await card.getByLabel("Your reason").fill("Bank statement checked");
    await card.getByRole("button", { name: "Approve" }).click();
    await expect(card).toHaveCount(0);
    // Decided: under the Approved tab, with who decided and why.
    await admin.page.getByRole("navigation", { name: "Requests by state" }).getByRole("link", { name: "Approved" }).click();
    await expect(admin.page).toHaveURL(/\/approvals\?state=approved$/);
    const decided = requestCard(admin.page, invoice.order_id);
    await expect(decided).toContainText("admin@example.com");
    await expect(decided).toContainText("Bank statement checked");
  } finally {
    await admin.context.close();
  }

  expect(await statusOf(page.request, invoice.invoice_id)).toBe("completed");
  await page.reload();
  await expect(heading(page).getByText("Completed")).toBeVisible();
  await expect(waitingNotice(page)).toHaveCount(0);
  await expect(timelineItem(page, "Status changed from Partly paid to Completed")).toContainText("admin@example.com");
});

test("a request whose invoice changed since it was asked can only be closed, and nothing is sent", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, "finance");
  const invoice = await invoiceOf(page, "paid_partial", { received: true });
  await askToSet(page, invoice, "Completed", "Paid in full according to the shop");

  // Meanwhile the provider's own status moves on (a payment window, another system).
  const patched = await page.request.patch(`/sandbox/api/v1/invoices/${encodeURIComponent(invoice.invoice_id)}`, {
    headers: KEY,
    data: { status: "expired" },
  });
  expect(patched.ok()).toBe(true);

  const admin = await asPerson(browser, "admin", "/approvals");
  try {
    const card = requestCard(admin.page, invoice.order_id);
    // The card already warns: the invoice now is not the invoice as asked.
    await expect(card).toContainText("Changed since asked: it can only be closed, nothing sent.");
    // It offers no Approve: its button says what pressing it does.
    await expect(card.getByRole("button", { name: "Approve" })).toHaveCount(0);
    const close = card.getByRole("button", { name: "Close it: the invoice changed" });
    await untilHydrated(close);
    await card.getByLabel("Your reason").fill("It expired meanwhile");
    await close.click();
    // The request is declined, so nothing can be sent: the page says so, and it is no longer waiting.
    await expect(admin.page.getByTestId("decided-notice")).toContainText(`nothing was sent for order ${invoice.order_id}.`);
    await expect(requestCard(admin.page, invoice.order_id)).toHaveCount(0);
    await admin.page.goto("/approvals?state=rejected");
    await expect(requestCard(admin.page, invoice.order_id)).toContainText("It expired meanwhile");
  } finally {
    await admin.context.close();
  }

  expect(await statusOf(page.request, invoice.invoice_id)).toBe("expired");
  await page.reload();
  await expect(waitingNotice(page)).toHaveCount(0);
  await expect(timelineItem(page, "Change to Completed rejected; nothing changed")).toContainText("admin@example.com");
});

test("nobody approves their own request: finance sees only Withdraw, and a forged approval is refused with 403", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "finance");
  const invoice = await invoiceOf(page, "paid_partial", { received: true });
  await askToSet(page, invoice, "Completed", "Customer sent the rest from another wallet");

  await page.goto("/approvals");
  const card = requestCard(page, invoice.order_id);
  await expect(card).toContainText("finance@example.com");
  // What came in, in its currency, before anyone approves it.
  await expect(card).toContainText(new RegExp(`Received\\s*[\\d.,]+ ${invoice.currency} \\(≈ €[\\d.,]+\\) has already been received`));
  await expect(card).not.toContainText("Approving marks it paid all the same.");
  await expect(card.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Reject" })).toHaveCount(0);
  const withdraw = card.getByRole("button", { name: `Withdraw the request for Order ${invoice.order_id}` });
  await expect(withdraw).toBeVisible();

  // The console's own route refuses it too, from this very page (same origin, finance's session).
  const id = await card.locator('input[name="id"]').inputValue();
  const forged = await page.evaluate(async (approvalId) => {
    const response = await fetch(`/api/approvals/${approvalId}/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reason: "Approving my own request" }),
    });
    return { status: response.status, body: await response.json() };
  }, id);
  expect(forged.status).toBe(403);
  expect(forged.body).toMatchObject({ code: "own_request", title: "You cannot approve your own request" });
  expect(await statusOf(page.request, invoice.invoice_id)).toBe("paid_partial");

  // What is left to do: take it back.
  await untilHydrated(withdraw);
  await card.getByLabel("Why withdraw it").fill("Asked too early: waiting for the bank");
  await withdraw.click();
  await expect(card).toHaveCount(0);
  await page.goto(invoicePath(invoice));
  await expect(waitingNotice(page)).toHaveCount(0);
  await expect(timelineItem(page, "Request to change to Completed withdrawn; nothing changed")).toContainText(
    "Asked too early: waiting for the bank",
  );
  expect(await statusOf(page.request, invoice.invoice_id)).toBe("paid_partial");
});

test("a request to mark completed an invoice that received nothing says so on its card", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "finance");
  const invoice = await invoiceOf(page, "expired");
  await askToSet(page, invoice, "Completed", "Customer says they paid");
  await page.goto("/approvals");
  const card = requestCard(page, invoice.order_id);
  await expect(card).toContainText(/Received\s*Nothing/);
  await expect(card).toContainText("Approving marks it paid all the same.");
  const withdraw = card.getByRole("button", { name: `Withdraw the request for Order ${invoice.order_id}` });
  await untilHydrated(withdraw);
  await card.getByLabel("Why withdraw it").fill("Nothing arrived: asked by mistake");
  await withdraw.click();
  await expect(card).toHaveCount(0);
});

/*
 * axe (as e2e/accessibility.spec.ts): nothing serious or critical on /approvals with a request waiting (its
 * decision form drawn) and on /settings, in both themes at 1440 and 390 px. One admin serves every check.
 */
test.describe("axe on the approval pages", () => {
  const TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"];
  const WIDTHS = { 1440: { width: 1440, height: 900 }, 390: { width: 390, height: 844 } } as const;
  let finance: { context: BrowserContext; page: Page };
  let admin: { context: BrowserContext; page: Page };
  let approvalId = "";
  let baseURL = "";

  test.beforeAll(async ({ browser }, info) => {
    test.setTimeout(120_000);
    baseURL = String(info.project.use.baseURL);
    finance = await asPerson(browser, "finance", "/overview");
    admin = await asPerson(browser, "admin", "/overview");
    const invoice = await invoiceOf(finance.page, "paid_partial", { received: true });
    const asked = await finance.page.request.patch(`/api/invoices/${encodeURIComponent(invoice.invoice_id)}`, {
      data: { status: "completed", reason: "For the accessibility check" },
      headers: { origin: baseURL },
    });
    expect(asked.status()).toBe(202);
    approvalId = ((await asked.json()) as { approval: { id: string } }).approval.id;
  });

  test.afterAll(async () => {
    // Leaves nothing waiting for the specs that follow.
    if (approvalId) {
      const withdrawn = await finance.page.request.post(`/api/approvals/${approvalId}/withdraw`, {
        data: { reason: "Only for the accessibility check" },
        headers: { origin: baseURL },
      });
      expect(withdrawn.ok()).toBe(true);
    }
    await finance?.context.close();
    await admin?.context.close();
  });

  const PAGES = [
    {
      name: "approvals",
      path: "/approvals",
      ready: async (p: Page) => {
        await expect(p.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();
        await expect(p.getByRole("button", { name: "Approve" }).first()).toBeVisible();
      },
    },
    {
      name: "settings",
      path: "/settings",
      ready: async (p: Page) => {
        await expect(p.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
        await expect(p.locator("main form").first()).toBeVisible();
      },
    },
  ];

  for (const check of PAGES) {
    for (const scheme of ["light", "dark"] as const) {
      for (const width of [1440, 390] as const) {
        const title = `axe: ${check.name}, ${scheme}, ${width} px`;
        test(title, async () => {
          const p = admin.page;
          await p.emulateMedia({ colorScheme: scheme });
          await p.setViewportSize(WIDTHS[width]);
          await p.goto(check.path);
          await expect(p.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /\blight\b/);
          await check.ready(p);
          const results = await new AxeBuilder({ page: p }).withTags(TAGS).analyze();
          const serious = results.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "region")
            .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
          expect(serious, title).toEqual([]);
        });
      }
    }
  }
});
