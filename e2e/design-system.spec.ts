import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { type DemoRole, invoiceRows, signIn } from "./fixtures";

/**
 * The design system as a person meets it: every moved screen passes axe (no serious or critical finding)
 * in both themes at desktop and phone widths, the phone layout never scrolls sideways, the theme choice is
 * remembered and painted before any script of the app runs, and nothing breaks the Content-Security-Policy.
 */

/** Screenshots of every page for a person to look at; git-ignored. */
const SCREENSHOTS = path.join(process.cwd(), "screenshots-tmp");

const WIDTHS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** CSP violations, as the page reports them and as the console logs them. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target.join(" ")} — ${n.failureSummary ?? ""}`)
          .join("; ")}`,
    );
}

async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** The first invoice of a filtered list: a plain one, an archived one, a partly paid one. */
async function firstInvoiceHref(page: Page, status: string): Promise<string> {
  await page.goto(`/invoices?status=${status}`);
  await expect(invoiceRows(page).first()).toBeVisible();
  const href = await invoiceRows(page).first().getByRole("link").first().getAttribute("href");
  expect(href).toMatch(/^\/invoices\/invoice_/);
  return href!;
}

async function openUserMenu(page: Page) {
  await page.getByRole("button", { name: /Account menu for/ }).click();
  await expect(page.getByRole("menu")).toBeVisible();
}

type Visit = { name: string; path: string; ready: (page: Page) => Promise<void> };

const heading = (name: string) => async (page: Page) => {
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
};
const invoiceReady = async (page: Page) => {
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
};

/**
 * Every page a role may open (and the 403 it gets where it may not). Roles that see a page alike share one
 * check, to keep the suite quick: the admin sees every page; the read-only roles and support add the pages
 * their role changes (the list's navigation, the invoice without or with status controls, the 403).
 */
async function visitsFor(page: Page, role: DemoRole | null): Promise<Visit[]> {
  if (role === null) return [{ name: "login", path: "/login", ready: heading("Sign in") }];
  const invoices = {
    name: "invoices",
    path: "/invoices",
    ready: async (p: Page) => {
      await expect(invoiceRows(p).first()).toBeVisible();
    },
  };
  const invoice = { name: "invoice", path: await firstInvoiceHref(page, "completed"), ready: invoiceReady };
  const partlyPaid = { name: "invoice-partly-paid", path: await firstInvoiceHref(page, "paid_partial"), ready: invoiceReady };
  const forbidden = { name: "forbidden", path: "/users", ready: heading("You don't have access to this page") };
  if (role === "viewer") return [invoices, invoice, forbidden];
  if (role === "finance") return [partlyPaid, forbidden];
  if (role === "support") return [invoice, partlyPaid];
  // The admin's other pages (list, invoice, users, not found…) are e2e/accessibility.spec.ts's, page by page.
  return [
    { name: "invoice-archived", path: await firstInvoiceHref(page, "archived"), ready: invoiceReady },
    partlyPaid,
    {
      name: "invoice-not-found",
      path: "/invoices/invoice_00000000-0000-7000-8000-000000000000",
      ready: async (p: Page) => {
        await expect(p.getByText("No invoice has this id")).toBeVisible();
      },
    },
    {
      name: "archive-csv-problems",
      path: "/archive",
      ready: async (p: Page) => {
        await p.getByRole("tab", { name: "Import a CSV" }).click();
        await p.locator("#archive-csv").setInputFiles({
          name: "rows.csv",
          mimeType: "text/csv",
          buffer: Buffer.from("order_id,fiat_amount,fiat_currency,currency\nROW-1,10.00,EUR,BTC\nROW-2,12.00,EUR,XYZ\n"),
        });
        await expect(p.getByRole("table", { name: "Rows with problems" })).toBeVisible();
      },
    },
  ];
}

// One test a role and theme, so each has its own time and a finding names where it is.
for (const role of [null, "viewer", "finance", "support", "admin"] as const) {
  for (const scheme of ["light", "dark"] as const) {
    test(`axe finds nothing serious and phones never scroll sideways: ${role ?? "signed out"}, ${scheme}, every page, 1440 and 390 px`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const csp = watchCsp(page);
      if (role) await signIn(page, role);
      const visits = await visitsFor(page, role);
      // The system's preference, with no choice stored: the theme follows it.
      await page.emulateMedia({ colorScheme: scheme });
      for (const [device, size] of Object.entries(WIDTHS)) {
        await page.setViewportSize(size);
        for (const visit of visits) {
          const where = `${visit.name} as ${role ?? "signed out"} in ${scheme} at ${size.width} px`;
          await page.goto(visit.path);
          await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /\blight\b/);
          await visit.ready(page);
          expect(await seriousViolations(page), where).toEqual([]);
          if (device === "phone") expect(await hasHorizontalScroll(page), `${where} scrolls sideways`).toBe(false);
          // For a person to look at (git-ignored; not in CI, where nobody does): one set a page, from the role that sees the most of it.
          if (!process.env.CI && (role === null || role === "admin" || (role === "viewer" && visit.name === "forbidden"))) {
            mkdirSync(SCREENSHOTS, { recursive: true });
            await page.screenshot({ path: path.join(SCREENSHOTS, `${visit.name}-${scheme}-${size.width}.png`), fullPage: true });
          }
        }
      }
      expect(csp).toEqual([]);
    });
  }
}

test("at tablet width (768 px) no page scrolls sideways", async ({ page }) => {
  await signIn(page, "admin");
  const visits = [
    ...(await visitsFor(page, "admin")),
    { name: "invoices", path: "/invoices", ready: async (p: Page) => expect(invoiceRows(p).first()).toBeVisible() },
    { name: "users", path: "/users", ready: heading("Users") },
  ];
  await page.setViewportSize({ width: 768, height: 1024 });
  for (const visit of visits) {
    await page.goto(visit.path);
    await visit.ready(page);
    expect(await hasHorizontalScroll(page), `${visit.name} scrolls sideways at 768 px`).toBe(false);
  }
});

test("the theme chosen in the user menu persists across reloads and is painted before the app's scripts run", async ({ page }) => {
  const csp = watchCsp(page);
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, "viewer");
  await openUserMenu(page);
  await page.getByRole("menuitemradio", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("menuitemradio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");

  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await openUserMenu(page);
  await expect(page.getByRole("menuitemradio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  await expect(invoiceRows(page).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // With the app's JavaScript blocked, only the inline pre-paint script (allowed by its nonce) can set the
  // theme: a dark page here means the first paint is already dark — no flash of the light theme.
  await page.route("**/_next/static/chunks/**", (route) => route.abort());
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toMatch(/^(rgb\(2[45]\d, 2[45]\d, 2[45]\d\)|oklch\(0\.9)/);
  await page.unroute("**/_next/static/chunks/**");

  // "Light" wins over a dark system preference, and "System" follows it again.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await openUserMenu(page);
  await page.getByRole("menuitemradio", { name: "Light" }).click();
  await page.keyboard.press("Escape");
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\blight\b/);
  await openUserMenu(page);
  await page.getByRole("menuitemradio", { name: "System" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  expect(csp).toEqual([]);
});

test("the user menu closes on Escape and on a click outside, and the phone header collapses into a menu", async ({ page }) => {
  await signIn(page, "admin");
  await openUserMenu(page);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Account menu for/ })).toBeFocused();

  await openUserMenu(page);
  await page.getByRole("heading", { name: "Invoices", level: 1 }).click();
  await expect(page.getByRole("menu")).toHaveCount(0);

  await page.setViewportSize(WIDTHS.phone);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await page.getByRole("button", { name: "Main menu" }).click();
  await page.getByRole("menuitem", { name: "Users" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
});

test("a hovered primary button keeps its text readable in both themes", async ({ page }) => {
  await signIn(page, "admin", "/activity");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/activity");
    await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /\blight\b/);
    await page.getByRole("button", { name: "Apply filters" }).hover();
    expect(await seriousViolations(page), scheme).toEqual([]);
  }
});

test("an unknown address shows a friendly page with the way back", async ({ page }) => {
  await signIn(page, "viewer");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This page does not exist", level: 1 })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.getByRole("link", { name: "Go to all invoices" }).click();
  await expect(invoiceRows(page).first()).toBeVisible();
});

test("the browser's own requests are answered: favicon and app icons", async ({ request }) => {
  for (const path of ["/favicon.ico", "/icon.svg"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
  }
});
