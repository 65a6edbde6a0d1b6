import { expect, test } from "@playwright/test";
import { signIn } from "./fixtures";

/** Phones (390 px): the Users page's actions in reach without a sideways scroll, no email cut mid-word. */

test.use({ viewport: { width: 390, height: 844 } });

test("Users at 390 px: Save and Disable in view without a sideways scroll; emails never broken mid-word", async ({ page }) => {
  await signIn(page, "admin", "/users");
  await page.goto("/users");
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  // The longest kind of address the suite makes (test users are named by a UUID), whatever ran before.
  const email = `admin-${crypto.randomUUID()}@test.invalid`;
  const add = page.locator("form").filter({ has: page.getByRole("button", { name: "Add user" }) });
  await add.getByLabel("Name").fill("Test admin");
  await add.getByLabel("Email").fill(email);
  await add.getByRole("button", { name: "Add user" }).click();
  const table = page.getByRole("table", { name: "Users" });
  await expect(table.getByRole("button", { name: `Disable ${email}` })).toBeVisible();
  // Neither the page nor the table's own box scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await table.evaluate((t) => (t.parentElement as HTMLElement).scrollWidth <= (t.parentElement as HTMLElement).clientWidth)).toBe(
    true,
  );

  const actions = table.getByRole("button", { name: /^(Save|Disable .+)$/ });
  expect(await actions.count()).toBeGreaterThan(2);
  for (const button of await actions.all()) {
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }

  // Every address in the table may wrap only at its own boundaries: no break-all, no anywhere.
  const styles = await table
    .locator("tbody td")
    .filter({ hasText: "@example.com" })
    .evaluateAll((cells) =>
      cells
        .flatMap((cell) => [...cell.querySelectorAll("*"), cell].map((el) => getComputedStyle(el)))
        .map((s) => `${s.wordBreak}/${s.overflowWrap}`),
    );
  expect(styles.length).toBeGreaterThan(0);
  expect(styles.filter((s) => s.includes("break-all") || s.includes("anywhere"))).toEqual([]);
  await expect(table.getByText("viewer@example.com", { exact: true }).filter({ visible: true })).toBeVisible();
});

test("the invoice list at 390 px: cards with a checkbox each, and the selection's bar works there", async ({ page }, testInfo) => {
  // Support may cancel (the transition policy), so the bar offers every action.
  await signIn(page, "support");
  await page.goto("/invoices");
  const cards = page.locator("li[data-invoice-card]").filter({ visible: true });
  await expect(cards).toHaveCount(20);
  const boxes = cards.getByRole("checkbox", { name: /^Select invoice / });
  // The checkboxes are islands: wait until they answer (the server draws them inert until then).
  await expect(boxes.first()).toBeEnabled();
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  const bar = page.getByRole("region", { name: "Selected invoices" });
  await expect(bar.getByTestId("selection-count")).toHaveText("2 selected");
  for (const name of ["Cancel invoices…", "Export selection", "Copy ids", "Clear selection"]) {
    const box = (await bar.getByRole("button", { name }).boundingBox())!;
    expect(box.x, name).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, name).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath("invoice-cards-selected-390.png"), fullPage: true });

  // The page's checkbox selects every card of the page; the bar offers the cancel with its reason.
  await page.getByRole("checkbox", { name: "Select the rows of this page" }).filter({ visible: true }).check();
  await expect(bar.getByTestId("selection-count")).toHaveText("20 selected");
  await bar.getByRole("button", { name: "Cancel invoices…" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel 20 invoices?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Keep them" }).click();
  await bar.getByRole("button", { name: "Clear selection" }).click();
  await expect(bar).toHaveCount(0);
  await expect(boxes.first()).not.toBeChecked();
});
