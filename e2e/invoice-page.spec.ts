import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";

/** The invoice page's minor rows: order id copy, explorer links, aligned amounts, who archived. */

type ListedInvoice = {
  invoice_id: string;
  order_id: string | null;
  currency: string | null;
  payment?: { transactions?: unknown[] } | null;
};

async function paidInvoice(page: Page): Promise<ListedInvoice> {
  const answer = await page.request.get("/api/invoices?status=completed&page_size=100");
  const items = (await answer.json()).items as ListedInvoice[];
  const withTx = items.filter((i) => (i.payment?.transactions?.length ?? 0) > 0 && i.order_id && i.currency === "BTC");
  // Several transactions show the alignment best; one will do.
  const best = withTx.find((i) => (i.payment?.transactions?.length ?? 0) > 1) ?? withTx[0];
  expect(best, "a completed BTC invoice with a transaction").toBeTruthy();
  return best;
}

test("a paid invoice: the order id copies, the address and transactions link to a public explorer, amounts line up", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, "viewer");
  const invoice = await paidInvoice(page);
  await page.goto(`/invoices/${encodeURIComponent(invoice.invoice_id)}`);
  await expect(page.getByText(`Order ${invoice.order_id}`)).toBeVisible();

  const copy = page.getByRole("button", { name: "Copy order id" });
  await copy.click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(invoice.order_id);

  const address = page.getByRole("link", { name: "View address on mempool.space (opens in a new tab)" });
  await expect(address).toHaveAttribute("href", /^https:\/\/mempool\.space\/address\/.+/);
  await expect(address).toHaveAttribute("target", "_blank");
  await expect(address).toHaveAttribute("rel", "noopener noreferrer");

  const transactions = page.getByRole("region", { name: "Blockchain transactions" });
  const txLinks = transactions.getByRole("link", { name: /transaction on .+, opens in a new tab/ });
  await expect(txLinks.first()).toHaveAttribute("rel", "noopener noreferrer");
  await expect(txLinks.first()).toHaveAttribute("target", "_blank");

  // The decimal points of the amounts stand at one x, whatever each amount's precision.
  const points = await transactions.getByTestId("transaction-amount").evaluateAll((cells) =>
    cells.map((cell) => {
      const text = cell.firstChild as Text;
      const range = document.createRange();
      const at = (text.textContent ?? "").indexOf(".");
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      return Math.round(range.getBoundingClientRect().left);
    }),
  );
  expect(points.length).toBe(invoice.payment?.transactions?.length);
  expect(new Set(points).size).toBe(1);
});

test("an archived invoice's timeline says who recorded it", async ({ page, baseURL }) => {
  await signIn(page, "finance");
  const order = `TRUTH-${Date.now()}`;
  const answer = await page.request.post("/api/archived", {
    headers: { origin: baseURL!, "content-type": "application/json" },
    data: {
      order_id: order,
      order_name: "Recorded by finance",
      fiat_amount: 49.9,
      fiat_currency: "EUR",
      currency: "BTC",
      created_at: "2025-01-15",
    },
  });
  expect(answer.status()).toBe(201);
  const { invoice_id } = await answer.json();
  await page.goto(`/invoices/${encodeURIComponent(invoice_id)}`);
  const first = page.getByRole("list", { name: "Invoice timeline" }).getByRole("listitem").first();
  await expect(first).toContainText("Recorded as an archived invoice");
  await expect(first).toContainText("finance@example.com");
});
