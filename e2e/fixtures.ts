import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

export type DemoRole = "viewer" | "finance" | "support" | "admin";

/** Signs in with the sandbox's demo account for `role` through the sign-in page, as a person would. */
export async function signIn(page: Page, role: DemoRole, next = "/invoices"): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("button", { name: new RegExp(`Sign in as ${role}`) }).click();
  await expect(page.getByTestId("user-role")).toHaveText(role[0].toUpperCase() + role.slice(1));
}

/** The console layout's "Your session ended" dialog, where a person signs in again in place. */
export function sessionEndedDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: "Your session ended" });
}

/** Signs in again in that dialog with an email and password; a second factor, if asked for, is the caller's next step. */
export async function signInAgainWithPassword(page: Page, email: string, password: string): Promise<Locator> {
  const dialog = sessionEndedDialog(page);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Password").fill(password);
  await dialog.getByRole("button", { name: "Sign in and finish" }).click();
  return dialog;
}

/** A form's own error message (Next.js keeps a second, empty role=alert element for route announcements). */
export function formAlert(page: Page): Locator {
  return page.locator('form [role="alert"]');
}

// While a page streams in, React holds the server's finished HTML in a hidden container until it swaps it into
// place, and a navigation that starts before the swap renders beside it: for a moment the same rows and ids
// exist twice. What a person sees is what counts, so these locators match visible elements only.

/** The invoice list's rows: the table's, or on a phone its cards. */
export function invoiceRows(page: Page): Locator {
  return page.locator("tbody tr, li[data-invoice-card]").filter({ visible: true });
}

/** The pagination's "41–60 of 2,013" line. */
export function invoiceRange(page: Page): Locator {
  return page.locator("#invoice-range").filter({ visible: true });
}

/**
 * Holds the page's scripts back until the returned function is called, as on a slow connection: what a person
 * does meanwhile meets the server's HTML alone.
 */
export async function holdPageScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const script = (url: URL) => url.pathname.startsWith("/_next/static/chunks/") && url.pathname.endsWith(".js");
  await page.route(script, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Waits until React has hydrated the page's controls: a select changed before that keeps the server's value
 * (React resets a controlled control when it hydrates), which on a busy machine made filter tests flaky.
 */
export async function untilInteractive(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const control = document.querySelector("main select, main input");
    return !!control && Object.keys(control).some((key) => key.startsWith("__reactProps"));
  });
  // Next.js's router settles its history entry in an effect after hydration; a URL change made before that
  // (a filter) can be replaced by it. The page's first requests done means the effects have run.
  await page.waitForLoadState("networkidle");
}

/**
 * Waits until React has hydrated one control: a button clicked before that does nothing yet (the forms are meant
 * to work before scripts load; where one does not yet, a test waits, as a person would see nothing happen and
 * click again).
 */
export async function untilHydrated(control: Locator): Promise<void> {
  await expect.poll(() => control.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps")))).toBe(true);
}

/** The invoice table's status filter (a disclosure whose summary says which statuses the view shows). */
export function statusFilter(page: Page): Locator {
  return page.locator("#status-filter > summary").filter({ visible: true });
}

/** Shows exactly these statuses (their labels: "Completed", "Partly paid"), as a person ticks them. */
export async function chooseStatuses(page: Page, labels: string[]): Promise<void> {
  const filter = page.locator("#status-filter").filter({ visible: true });
  if (!(await filter.evaluate((details) => (details as HTMLDetailsElement).open))) await statusFilter(page).click();
  const all = ["New", "Pending", "Completed", "Expired", "Cancelled", "Partly paid", "Archived"];
  for (const label of all) {
    const box = filter.getByRole("checkbox", { name: label, exact: true });
    await box.setChecked(labels.includes(label));
  }
  await page.keyboard.press("Escape");
  // Each tick applies by itself (a server render each): done when the list shows the last of them,
  // as a person would see the filter's summary say it.
  const chosen = all.filter((label) => labels.includes(label));
  await expect(statusFilter(page)).toHaveText(
    chosen.length === 0 ? "All statuses" : chosen.length <= 2 ? chosen.join(", ") : `${chosen.length} statuses`,
  );
}

/**
 * Starts a status change as a person does: a click on its trigger ("Cancel invoice", "Change status…"). With the
 * page's scripts the trigger opens a dialog; clicked before they have loaded it is a link, and the server draws
 * the same change as a form on the page (`?change=`). Either way the person goes on there, so the returned
 * locator is the one that appeared (named `title`): it holds the reason, the choices, the confirm button and any
 * failure, and is gone once the change is made.
 */
export async function startStatusChange(
  page: Page,
  trigger: "Cancel invoice" | "Change status…",
  title: string | RegExp,
): Promise<Locator> {
  await page.getByRole("button", { name: trigger, exact: true }).click();
  const change = page
    .getByRole("alertdialog", { name: title })
    .or(page.getByRole("dialog", { name: title }))
    .or(page.getByRole("region", { name: title }));
  await expect(change).toBeVisible();
  return change;
}

const TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"];
const LABEL_IN_NAME = "label-content-name-mismatch";

/**
 * Every serious or critical finding as "rule (impact, n nodes): node targets", so a failure explains itself;
 * with `withRegion`, also `region` (moderate): page content outside every landmark, as the shell's rates strip
 * once was. A page's own content only: an open menu's popup is portalled to the end of <body>, as popups are.
 */
export async function seriousFindings(page: Page, withRegion = false): Promise<string[]> {
  // Right after a theme or size change, colours still in a CSS transition would be measured half-way. Two frames
  // first: a hover that a resize moved under the pointer, or a theme's new colours, start their transitions there.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  // Label in name (WCAG 2.5.3): experimental in axe, so off unless asked for; every scan asks.
  const labelInName = await new AxeBuilder({ page })
    .withRules([LABEL_IN_NAME])
    .options({ rules: { [LABEL_IN_NAME]: { enabled: true } } })
    .analyze();
  return [...results.violations, ...labelInName.violations]
    .filter((v) => v.impact === "serious" || v.impact === "critical" || (withRegion && v.id === "region"))
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")} — first: ${v.nodes[0]?.html.slice(0, 160)}`,
    );
}
