import { expect, type Page, test } from "@playwright/test";
import { signIn, untilInteractive } from "./fixtures";

/**
 * Support finds an invoice by what they have in hand — part of the shop's order id — in the search palette
 * (/ or Ctrl+K), opens it, cancels it, and finds it again under its new status at once.
 */

type Answer = { results: { invoice_id: string; order_id: string; status: string }[]; index: { state: string; fresh_as_of: string | null } };

/** The console fills its index in the background after it starts; the specs wait until the first fill is done. */
async function untilIndexReady(page: Page) {
  await expect
    .poll(async () => ((await (await page.request.get("/api/search?q=ORD")).json()) as Answer).index, { timeout: 90_000, intervals: [500] })
    .toMatchObject({ state: "ready", fresh_as_of: expect.any(String) });
}

/**
 * An expired invoice's order id, as support would have it from the shop. Expired invoices have received nothing,
 * so support cancels one at once (a paid one's cancel waits for approval: e2e/approvals.spec.ts).
 */
async function expiredOrderId(page: Page): Promise<string> {
  const list = await (await page.request.get("/api/invoices?status=expired&page_size=1&page=5&sort_by=created_at&sort_order=asc")).json();
  return list.items[0].order_id as string;
}

/** The shell's shortcuts listen once the header's search button has hydrated. */
async function untilShortcuts(page: Page) {
  await page.waitForFunction(() => {
    const button = document.querySelector("button[aria-keyshortcuts]");
    return !!button && Object.keys(button).some((key) => key.startsWith("__reactProps"));
  });
}

const palette = (page: Page) => page.getByRole("dialog", { name: "Find an invoice" });
const searchBox = (page: Page) => page.getByRole("combobox", { name: /Find an invoice/ });

test("support presses /, types part of an order id, opens the invoice, cancels it and finds it cancelled at once", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "support");
  await untilIndexReady(page);
  const orderId = await expiredOrderId(page);
  const part = orderId.split("-").at(-1)!; // "002399" of ORD-2611-002399

  await untilInteractive(page);
  await page.keyboard.press("/");
  await expect(palette(page)).toBeVisible();
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type(part);
  const first = palette(page).getByRole("option").first();
  await expect(first).toContainText(orderId);
  await expect(first).toContainText("Expired");
  await expect(first).toHaveAttribute("aria-selected", "true");
  await expect(palette(page).getByTestId("search-freshness")).toContainText(/Index as of \d+ (s|min) ago/);

  await page.keyboard.press("Enter");
  await expect(palette(page)).toBeHidden();
  await expect(page).toHaveURL(/\/invoices\/[^/]+$/);
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Cancel invoice" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Cancel invoice for order ${orderId}?` });
  await page.getByLabel("Reason (required)").fill("The shop voided the order (ticket 5120)");
  await confirm.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Status is now Cancelled." })).toBeVisible();

  // Found under its new status at once: the change wrote the index, no sync needed.
  await page.keyboard.press("Control+k");
  await expect(palette(page)).toBeVisible();
  await page.keyboard.type(orderId);
  await expect(palette(page).getByRole("option").first()).toContainText("Cancelled");
  await expect(palette(page).getByRole("option").first()).toContainText("Order id");
  await page.keyboard.press("Escape");
  await expect(palette(page)).toBeHidden();
});

test("arrow keys move through results, / typed in a field stays text, and the header button opens the palette", async ({ page }) => {
  await signIn(page, "viewer");
  await untilIndexReady(page);
  await untilInteractive(page);

  await page.getByLabel("Open by invoice or order id").fill("a/b");
  await expect(page.getByLabel("Open by invoice or order id")).toHaveValue("a/b");
  await expect(palette(page)).toHaveCount(0);

  await page.getByRole("button", { name: "Find invoice" }).click();
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type("ORD-");
  const options = palette(page).getByRole("option");
  // The ten best, then the whole list searched for it.
  await expect(options).toHaveCount(11);
  await expect(options.last()).toHaveText("Every invoice matching “ORD-”, in the invoice list");
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowUp");
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");

  await searchBox(page).fill("zzzz-no-such-order");
  await expect(palette(page).getByRole("status")).toContainText("No invoice matches “zzzz-no-such-order”");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Find invoice" })).toBeFocused();

  // Past the best ten, every match is one key away: up from the first is the whole list.
  await page.getByRole("button", { name: "Find invoice" }).click();
  await page.keyboard.type("ORD-");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowUp");
  await expect(options.last()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/invoices\?q=ORD-$/);
  await expect(palette(page)).toHaveCount(0);
});

test("the palette in light and dark, on a desktop and at phone width (screenshots)", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await signIn(page, "admin");
  await untilIndexReady(page);
  for (const [scheme, width] of [
    ["light", 1280],
    ["dark", 1280],
    ["light", 390],
    ["dark", 390],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/users");
    await untilShortcuts(page);
    await page.screenshot({ path: testInfo.outputPath(`users-${scheme}-${width}.png`), fullPage: true });
    await page.keyboard.press("/");
    await searchBox(page).fill("merino sw");
    await expect(palette(page).getByRole("option").first()).toBeVisible();
    // Each result's order id is read whole beside its status, amount and date.
    const orderId = palette(page)
      .getByRole("option")
      .first()
      .getByText(/^ORD-\d+-\d+$/);
    expect(await orderId.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`palette-${scheme}-${width}.png`) });
    await page.keyboard.press("Escape");
  }
});

test("typed slowly (300 ms a key), refined and reopened, the best result is highlighted and Enter opens it", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "viewer");
  await untilIndexReady(page);
  await untilShortcuts(page);
  const list = await (await page.request.get("/api/invoices?status=completed&page_size=1&page=7")).json();
  const orderId = list.items[0].order_id as string;

  await page.keyboard.press("/");
  await expect(searchBox(page)).toBeFocused();
  // Slower than the debounce: a result list arrives after every key, and changes with each.
  await page.keyboard.type(orderId.slice(0, -2), { delay: 300 });
  const options = palette(page).getByRole("option");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.type(orderId.slice(-2), { delay: 300 });
  await expect(options.first()).toContainText(orderId);
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/invoices\/[^/?]+$/);
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();

  // Reopened: the same text again gives the same result, highlighted, and Enter opens it.
  await page.keyboard.press("/");
  await page.keyboard.type(orderId, { delay: 300 });
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();
});

test("every key typed right after / reaches the palette, while it is still loading", async ({ page }) => {
  await signIn(page, "support");
  await untilIndexReady(page);
  const orderId = await expiredOrderId(page);
  // A fresh page: the palette's code is not loaded until the shortcut asks for it.
  await page.goto("/rates");
  await untilInteractive(page);
  await page.keyboard.press("/");
  await page.keyboard.type(orderId, { delay: 0 });
  await expect(searchBox(page)).toHaveValue(orderId);
  await expect(palette(page).getByRole("option").first()).toContainText(orderId);
  await page.keyboard.press("Enter");
  await expect(page.getByText(`Order ${orderId}`, { exact: true })).toBeVisible();
});
