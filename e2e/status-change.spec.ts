import { createServer, type Server } from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { type ConsoleServer, freePort, startConsoleServer } from "../test/console-server";
import { chooseStatuses, invoiceRows, signIn, startStatusChange, untilInteractive } from "./fixtures";

/** Support cancels an order's invoice: find it, cancel with a reason, see it everywhere. */

/**
 * Finds an invoice the way support does: the list filtered by status (a shared link), then a click on the first
 * row, or on the row of `orderId` when the journey needs a particular one.
 */
async function openFirstInvoice(page: Page, status: string, orderId?: string): Promise<string> {
  await page.goto(`/invoices?status=${status}&sort_by=created_at&sort_order=asc`);
  // A row opens its invoice through script: clicked before hydration, it does nothing.
  await untilInteractive(page);
  const row = orderId ? invoiceRows(page).filter({ hasText: orderId }) : invoiceRows(page).first();
  const order = (await row.locator("td:nth-child(3)").innerText()).trim();
  await row.locator("td:nth-child(4)").click();
  await expect(page.getByText(`Order ${order}`, { exact: true })).toBeVisible();
  return order;
}

/** The oldest invoice of `status` that has a callback URL (so its change sends a webhook), by the sandbox's API. */
async function oldestWithCallback(page: Page, status: string): Promise<string> {
  const answer = await page.request.get(`/sandbox/api/v1/invoices?status=${status}&page_size=20&sort_order=asc`, {
    headers: { "api-key": "sk_test_demo_full" },
  });
  const { items } = (await answer.json()) as { items: { order_id: string; callback_url: string | null }[] };
  const invoice = items.find((i) => i.callback_url);
  expect(invoice, `an invoice of status ${status} with a callback URL`).toBeTruthy();
  return invoice!.order_id;
}

test("support cancels an invoice with a reason, by keyboard; the timeline and the cancelled filter show it", async ({ page }) => {
  await signIn(page, "support");
  // An expired invoice has received nothing, so support cancels it at once. (A pending or partly paid one has
  // received crypto: its cancel waits for approval, and its dialog says how much came in: e2e/approvals.spec.ts.)
  const orderId = await openFirstInvoice(page, "expired", await oldestWithCallback(page, "expired"));

  // The whole flow without a mouse.
  await page.getByRole("button", { name: "Cancel invoice" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: `Cancel invoice for order ${orderId}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("The status changes from Expired to Cancelled");
  await expect(dialog).toContainText("sends a status webhook to");
  await expect(dialog).not.toContainText("Needs approval");
  await expect(dialog).not.toContainText("Cancelling does not send it back");
  await expect(page.getByLabel("Reason (required)")).toBeFocused();
  // Spaces are no reason: the dialog says so and puts the cursor back in the field.
  await page.keyboard.type("   ");
  await page.keyboard.press("Tab"); // Keep invoice
  await page.keyboard.press("Tab"); // Cancel invoice
  await page.keyboard.press("Enter");
  await expect(dialog).toContainText("The reason is required: say why.");
  await expect(page.getByLabel("Reason (required)")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Order voided at the customer's request (ticket 4821)");
  await page.keyboard.press("Tab"); // Keep invoice
  await page.keyboard.press("Tab"); // Cancel invoice
  await page.keyboard.press("Enter");

  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Change status…" })).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Cancelled")).toBeVisible();
  // The change, with its reason and who made it. Its webhook's delivery may already be listed above it.
  const timeline = page.getByRole("list", { name: "Invoice timeline" });
  const change = timeline.getByRole("listitem").filter({ hasText: "Status changed from Expired to Cancelled" });
  await expect(change).toHaveCount(1);
  await expect(change).toContainText("Order voided at the customer's request (ticket 4821)");
  await expect(change).toContainText("support@example.com");

  // The list, cached before the change, shows the new status too.
  await page.getByRole("link", { name: "← All invoices" }).click();
  await chooseStatuses(page, ["Cancelled"]);
  await page
    .getByRole("columnheader", { name: /Updated/ })
    .getByRole("link")
    .click();
  await expect(page).toHaveURL(/sort_by=updated_at/);
  await expect(invoiceRows(page).first().locator("td:nth-child(3)")).toHaveText(orderId);
});

test("Escape closes the dialog without a change, and focus returns to the control", async ({ page }) => {
  await signIn(page, "admin");
  await openFirstInvoice(page, "new");
  await page.getByRole("button", { name: "Change status…" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("radio")).toHaveCount(5);
  // Nothing is preselected: a stray Enter changes nothing.
  await expect(dialog.getByRole("button", { name: "Choose a status" })).toBeDisabled();
  await dialog.getByRole("radio", { name: /Cancelled/ }).check();
  await expect(page.getByLabel("Reason (required)")).toBeVisible();
  // A New invoice has received nothing: not a word about refunds.
  await expect(dialog).not.toContainText("Cancelling does not send it back");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Change status…" })).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 }).getByText("New")).toBeVisible();
});

test("a viewer sees no status control and no sentence about it on every invoice", async ({ page }) => {
  await signIn(page, "viewer");
  await openFirstInvoice(page, "pending");
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel invoice" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Change status…" })).toHaveCount(0);
  await expect(page.getByText("Only support and admin can change an invoice's status.")).toHaveCount(0);
});

/*
 * The change is a server action: the browser sends no request of its own to fail. A console whose provider
 * (the e2e sandbox behind a small proxy) answers 500 to every status change shows the failure.
 */
test.describe("an upstream failure", () => {
  let proxy: Server;
  let consoleServer: ConsoleServer;
  let failing = true;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const sandbox = `http://127.0.0.1:${process.env.E2E_PORT}/sandbox/api/v1`;
    const port = await freePort();
    proxy = createServer(async (req, res) => {
      if (failing && req.method === "PATCH") {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ message: "boom" }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await fetch(`${sandbox}${req.url!.slice("/api/v1".length)}`, {
        method: req.method,
        headers: {
          "api-key": String(req.headers["api-key"] ?? ""),
          "content-type": String(req.headers["content-type"] ?? "application/json"),
        },
        body: ["GET", "HEAD"].includes(req.method!) ? undefined : Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(port, "127.0.0.1", resolve));
    consoleServer = await startConsoleServer({
      INVOICING_API_URL: `http://127.0.0.1:${port}/api/v1`,
      INVOICING_API_KEY: "sk_test_demo_full",
    });
  });

  test.afterAll(async () => {
    await consoleServer?.stop();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  test("is shown where the change was asked (the dialog, or the server's form), and the status is unchanged", async ({ page, request }) => {
    const list = await (
      await request.get("/sandbox/api/v1/invoices?status=new&page_size=1&sort_order=asc", { headers: { "api-key": "sk_test_demo_full" } })
    ).json();
    const invoiceId: string = list.items[0].invoice_id;
    const [name, value] = consoleServer.sessions.roles.support.split(";")[0].split(/=(.*)/s);
    await page.context().addCookies([{ name, value, url: consoleServer.url }]);
    await page.goto(`${consoleServer.url}/invoices/${encodeURIComponent(invoiceId)}`);
    // A dialog once the page's scripts run, the server's form if clicked before: the failure is said in either.
    const cancel = await startStatusChange(page, "Cancel invoice", /^Cancel invoice for order/);
    await cancel.getByLabel("Reason (required)").fill("Duplicate order");
    await cancel.getByRole("button", { name: "Cancel invoice" }).click();
    const alert = cancel.getByRole("alert");
    await expect(alert).toContainText("The payment provider failed or could not be reached; try again in a minute. Nothing was changed.");
    await expect(alert).toContainText("It answered HTTP 500.");
    await expect(page.getByLabel("Reason (required)")).toHaveValue("Duplicate order");

    failing = false;
    await cancel
      .getByRole("button", { name: "Keep invoice" })
      .or(cancel.getByRole("link", { name: "Keep invoice" }))
      .click();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 }).getByText("New")).toBeVisible();
  });
});
