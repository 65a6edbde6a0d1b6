import { expect, type Page, test } from "@playwright/test";

/**
 * Approvals with scripts held back (before the page's scripts load, or without them): finance asks for a change with the form the server draws
 * (`?change=completed`), and an admin approves one request and rejects another with the plain forms of
 * /approvals. Nothing here needs script; nothing is left waiting afterwards.
 */

const KEY = { "api-key": "sk_test_demo_full" };

type SandboxInvoice = { invoice_id: string; order_id: string; payment: { amount_received: number | string | null } | null };

/** Signs in with a demo account's button (a form that posts), after signing out whoever this browser held. */
async function signIn(page: Page, role: "finance" | "admin", next: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("button", { name: new RegExp(`Sign in as ${role}`) }).click();
  await expect(page.getByTestId("user-role")).toHaveText(role[0].toUpperCase() + role.slice(1));
}

/**
 * Partly paid invoices that have received crypto and that no request waits on, the newest first, past the ones
 * e2e/approvals.spec.ts takes (`page`'s person must be signed in to read the waiting requests).
 */
async function partlyPaid(page: Page, count: number): Promise<SandboxInvoice[]> {
  const list = await page.request.get("/sandbox/api/v1/invoices?status=paid_partial&page_size=100&sort_order=desc", { headers: KEY });
  const { items } = (await list.json()) as { items: SandboxInvoice[] };
  const waiting = await page.request.get("/api/approvals?state=pending");
  const asked = new Set(((await waiting.json()) as { items: { invoice_id: string | null }[] }).items.map((a) => a.invoice_id));
  const fitting = items.filter((i) => !asked.has(i.invoice_id) && Number(i.payment?.amount_received ?? 0) > 0).slice(10, 10 + count);
  expect(fitting).toHaveLength(count);
  return fitting;
}

async function statusOf(page: Page, invoiceId: string): Promise<string> {
  const answer = await page.request.get(`/sandbox/api/v1/invoices/${encodeURIComponent(invoiceId)}`, { headers: KEY });
  return ((await answer.json()) as { status: string }).status;
}

const invoicePath = (invoice: SandboxInvoice) => `/invoices/${encodeURIComponent(invoice.invoice_id)}`;

/** Finance asks to mark `invoice` completed with the form the server draws; the page then says it waits. */
async function askCompleted(page: Page, invoice: SandboxInvoice, reason: string): Promise<void> {
  await page.goto(`${invoicePath(invoice)}?change=completed`);
  const form = page.getByRole("region", { name: `Change the status of order ${invoice.order_id}` });
  await expect(form).toContainText("The status changes from Partly paid to Completed.");
  await expect(form).toContainText("Needs approval. To mark an invoice completed needs a second person's approval.");
  await form.getByLabel("Reason (required)").fill(reason);
  await form.getByRole("button", { name: "Ask for approval" }).click();
  await expect(page).toHaveURL(/\?asked=completed$/);
  await expect(
    page.getByRole("status").filter({ hasText: "Asked for approval to set it to Completed. Nothing changes until someone approves it." }),
  ).toBeVisible();
  const waiting = page.getByTestId("waiting-for-approval");
  await expect(waiting).toContainText(`finance@example.com asked to set this invoice to Completed: “${reason}”`);
  await expect(page.getByRole("heading", { level: 1 }).getByText("Partly paid")).toBeVisible();
}

test("finance asks with the server-drawn form; an admin approves one request and rejects another with the plain forms", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "finance", "/overview");
  const [approved, rejected] = await partlyPaid(page, 2);
  await askCompleted(page, approved, "Paid in full by bank transfer (no-script 1)");
  await askCompleted(page, rejected, "Paid in full, says the shop (no-script 2)");
  expect(await statusOf(page, approved.invoice_id)).toBe("paid_partial");
  expect(await statusOf(page, rejected.invoice_id)).toBe("paid_partial");

  await signIn(page, "admin", "/approvals");
  const card = (invoice: SandboxInvoice) => page.getByRole("article", { name: `Order ${invoice.order_id}`, exact: true });
  await expect(card(approved)).toContainText("Paid in full by bank transfer (no-script 1)");
  await card(approved).getByLabel("Your reason").fill("Bank statement checked");
  await card(approved).getByRole("button", { name: "Approve" }).click();
  await expect(card(approved)).toHaveCount(0);
  expect(await statusOf(page, approved.invoice_id)).toBe("completed");

  await expect(card(rejected)).toContainText("Paid in full, says the shop (no-script 2)");
  await card(rejected).getByLabel("Your reason").fill("Nothing more arrived on chain");
  await card(rejected).getByRole("button", { name: "Reject" }).click();
  await expect(card(rejected)).toHaveCount(0);
  await expect(page.getByTestId("decided-notice")).toContainText(
    `Rejected by admin@example.com: nothing was sent for order ${rejected.order_id}.`,
  );
  expect(await statusOf(page, rejected.invoice_id)).toBe("paid_partial");

  // Each decision is under its tab, and in the invoice's timeline.
  await page.getByRole("navigation", { name: "Requests by state" }).getByRole("link", { name: "Rejected" }).click();
  await expect(page).toHaveURL(/\/approvals\?state=rejected$/);
  await expect(card(rejected)).toContainText("Nothing more arrived on chain");
  await page.goto("/approvals?state=approved");
  await expect(card(approved)).toContainText("Bank statement checked");

  await page.goto(invoicePath(approved));
  await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible();
  await expect(page.getByTestId("waiting-for-approval")).toHaveCount(0);
  const timeline = page.getByRole("list", { name: "Invoice timeline" });
  await expect(timeline).toContainText("Change to Completed approved (asked by finance@example.com)");
  await expect(timeline).toContainText("Status changed from Partly paid to Completed");

  await page.goto(invoicePath(rejected));
  await expect(page.getByRole("heading", { level: 1 }).getByText("Partly paid")).toBeVisible();
  await expect(page.getByTestId("waiting-for-approval")).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Invoice timeline" })).toContainText("Change to Completed rejected; nothing changed");
});
