import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";

/**
 * The list's toolbar keeps every control in its place whatever is filtered: with no filter, a preset, a
 * custom range, two statuses and text, each control's box is where it was; what does not apply is disabled
 * there, with its reason.
 */

const VIEWS = [
  "/invoices",
  "/invoices?from=2024-01-01&to=2024-12-31",
  "/invoices?status=pending,paid_partial",
  "/invoices?q=ORD",
  "/invoices?created=30d",
  "/invoices?status=paid&currency=BTC&from=2024-11-21&q=lamp",
];

async function boxes(page: Page, view: string) {
  await page.goto(view);
  // The controls loaded after the page are in place (Save view is a button that works).
  await expect(page.getByRole("button", { name: "Save view" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Export", exact: true })).toBeVisible();
  await page.waitForLoadState("networkidle");
  const controls = {
    search: page.getByLabel("Search in list"),
    status: page.locator("#status-filter summary"),
    currency: page.getByLabel("Currency"),
    created: page.getByLabel("Created"),
    from: page.getByLabel("From", { exact: true }),
    to: page.getByLabel("To", { exact: true }),
    apply: page.getByRole("button", { name: "Apply" }),
    reset: page.getByText("Reset filters", { exact: true }),
    save: page.getByRole("button", { name: "Save view" }),
    export: page.getByRole("button", { name: "Export", exact: true }),
    open: page.getByLabel("Open by invoice or order id"),
  };
  // From the toolbar's first control: a notice above the toolbar (the mirror filling, a busy provider) may come and go.
  const origin = (await page.getByLabel("Search in list").boundingBox())!;
  const out: Record<string, { x: number; y: number; width: number; height: number }> = {};
  for (const [name, locator] of Object.entries(controls)) {
    const box = await locator.filter({ visible: true }).boundingBox();
    expect(box, `${name} in ${view}`).not.toBeNull();
    out[name] = { ...box!, x: box!.x - origin.x, y: box!.y - origin.y };
  }
  return out;
}

for (const width of [1440, 390]) {
  test(`at ${width} px every toolbar control keeps its place whatever is filtered`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, "finance");
    // A first visit right after signing in may still be settling (the session's first page): measured once more after.
    await boxes(page, VIEWS[0]);
    const first = await boxes(page, VIEWS[0]);
    for (const view of VIEWS.slice(1)) {
      const next = await boxes(page, view);
      for (const [name, box] of Object.entries(first)) {
        const moved = next[name];
        expect
          .soft([Math.round(moved.x), Math.round(moved.y), Math.round(moved.width)], `${name} in ${view}`)
          .toEqual([Math.round(box.x), Math.round(box.y), Math.round(box.width)]);
      }
    }
  });
}

test("what does not apply is disabled in place, saying why", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/invoices");
  const reset = page.getByRole("button", { name: "Reset filters" });
  await expect(reset).toBeDisabled();
  await expect(reset).toHaveAccessibleDescription("No filter is set");

  await page.goto("/invoices?created=30d");
  await expect(page.getByRole("link", { name: "Reset filters" })).toBeVisible();
  const from = page.getByLabel("From", { exact: true });
  await expect(from).toBeDisabled();
  await expect(from).toHaveAccessibleDescription(
    "From and To are not used with “Last 30 days”: choose “Custom range…” in Created to type days.",
  );

  await page.goto("/invoices?from=2024-11-21");
  await expect(from).toBeEnabled();
  await expect(from).toHaveValue("2024-11-21");
  await expect(from).toHaveAttribute("placeholder", "YYYY-MM-DD");
  await expect(from).toHaveAccessibleDescription(/From the start of 21 Nov 2024, /);
});

test("a day that is not one of the calendar stays in its field, marked, and is named under it", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/invoices?from=2026-02-30&to=2026-03-05");
  const from = page.getByLabel("From", { exact: true });
  await expect(from).toHaveValue("2026-02-30");
  await expect(from).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Created")).toHaveValue("custom");
  await expect(from).toHaveAccessibleDescription(
    "“2026-02-30” in From is not a day of the calendar: type it as YYYY-MM-DD; until then it is not used.",
  );
  // The other end still applies, and says so at the top.
  await expect(page.getByTestId("list-url-notice")).toContainText("“2026-02-30” in From is not a day of the calendar");
  await expect(page.getByLabel("To", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
});
