import { mkdirSync } from "node:fs";
import path from "node:path";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { invoiceRows, seriousFindings, signIn, statusFilter, untilHydrated } from "./fixtures";

/**
 * The accessibility goal: axe (WCAG 2 A and AA, 2.1 AA and best practices) finds nothing serious or
 * critical on any page, in the light and the dark theme, at 1440 and 390 px, also with every menu and dialog
 * open, the API reference included. One check a page or state in one theme at one width, so a finding names
 * exactly where it is; one signed-in admin (who may open every page) serves them all, to keep the run short.
 */

const WIDTHS = { 1440: { width: 1440, height: 900 }, 390: { width: 390, height: 844 } } as const;
type Width = keyof typeof WIDTHS;
type Scheme = "light" | "dark";

const SCREENSHOTS = path.join(process.cwd(), "screenshots-tmp");
const SHOTS = new Set(["API reference", "webhooks", "rates"]);
const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, "-").toLowerCase();

let context: BrowserContext;
let page: Page;
/** Filled once signed in: an invoice still pending (it can be cancelled) and a paid one with transactions. */
const invoice = { pending: "", paid: "" };

async function firstInvoiceHref(status: string): Promise<string> {
  await page.goto(`/invoices?status=${status}`);
  await expect(invoiceRows(page).first()).toBeVisible();
  const href = await invoiceRows(page).first().getByRole("link").first().getAttribute("href");
  expect(href).toMatch(/^\/invoices\/invoice_/);
  return href!;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  mkdirSync(SCREENSHOTS, { recursive: true });
  context = await browser.newContext();
  page = await context.newPage();
  await signIn(page, "admin");
  invoice.pending = await firstInvoiceHref("pending");
  invoice.paid = await firstInvoiceHref("completed");
});

test.afterAll(async () => {
  await context?.close();
});

/** Opens `path` in the theme and at the width, and waits until the page shows what it is about. */
async function open(path: string, scheme: Scheme, width: Width, ready: (p: Page) => Promise<void>): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize(WIDTHS[width]);
  await page.goto(path);
  await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /\blight\b/);
  await ready(page);
}

const heading = (name: string | RegExp) => async (p: Page) => {
  await expect(p.getByRole("heading", { name, level: 1 })).toBeVisible();
};
const timeline = async (p: Page) => {
  await expect(p.getByRole("heading", { name: "Timeline" })).toBeVisible();
};
const invoiceList = async (p: Page) => {
  await expect(invoiceRows(p).first()).toBeVisible();
};

type Check = {
  name: string;
  /** The page's address; a function when it is known only once signed in. */
  path: string | (() => string);
  ready: (p: Page) => Promise<void>;
  /** Brings the page into the state to check (a menu or dialog open). */
  act?: (p: Page) => Promise<void>;
  widths?: Width[];
  signedOut?: boolean;
};

const PAGES: Check[] = [
  {
    name: "overview",
    path: "/overview",
    ready: async (p) => {
      await heading("Overview")(p);
      await expect(p.getByRole("region", { name: "Needs attention" }).getByRole("list").first()).toBeVisible();
    },
  },
  { name: "invoices", path: "/invoices", ready: invoiceList },
  { name: "invoice (pending)", path: () => invoice.pending, ready: timeline },
  { name: "invoice (paid, with transactions)", path: () => invoice.paid, ready: timeline },
  {
    name: "rates",
    path: "/rates",
    ready: async (p) => {
      await heading("Rates")(p);
      await expect(p.locator("main table").first()).toBeVisible();
    },
  },
  { name: "archive, one invoice", path: "/archive", ready: heading("Record archived invoices") },
  {
    name: "archive, import a CSV",
    path: "/archive",
    ready: heading("Record archived invoices"),
    act: async (p) => {
      const tab = p.getByRole("tab", { name: "Import a CSV" });
      await untilHydrated(tab);
      await tab.click();
      await expect(tab).toHaveAttribute("aria-selected", "true");
    },
  },
  { name: "webhooks", path: "/webhooks", ready: heading("Webhooks") },
  { name: "users", path: "/users", ready: heading("Users") },
  { name: "account", path: "/account", ready: heading("Account") },
  {
    name: "API reference",
    path: "/docs/api",
    ready: async (p) => {
      await heading("API reference")(p);
      await expect(p.getByRole("heading", { name: "List invoices" }).first()).toBeVisible({ timeout: 30_000 });
    },
  },
  { name: "not found", path: "/no-such-page", ready: heading("This page does not exist") },
];

/** Opens a menu by its trigger once the trigger's script is there, and waits for the menu. */
const openMenu =
  (trigger: (p: Page) => ReturnType<Page["getByRole"]>, role: "menu" | "dialog" = "menu") =>
  async (p: Page) => {
    const button = trigger(p);
    await untilHydrated(button);
    await button.click();
    await expect(p.getByRole(role).first()).toBeVisible();
  };

const STATES: Check[] = [
  {
    name: "Export menu open",
    path: "/invoices",
    ready: invoiceList,
    act: openMenu((p) => p.getByRole("button", { name: "Export" })),
  },
  {
    name: "Views menu open",
    path: "/invoices",
    ready: invoiceList,
    act: openMenu((p) => p.getByRole("button", { name: "Saved views" })),
    widths: [1440],
  },
  {
    name: "user menu open",
    path: "/invoices",
    ready: invoiceList,
    act: openMenu((p) => p.getByRole("button", { name: /Account menu for/ })),
  },
  {
    name: "status filter open",
    path: "/invoices",
    ready: invoiceList,
    // A disclosure (<details>) of checkboxes, which opens without script.
    act: async (p: Page) => {
      await statusFilter(p).click();
      await expect(p.getByRole("checkbox", { name: "Expired" })).toBeVisible();
    },
  },
  {
    name: "search palette open",
    path: "/invoices",
    ready: invoiceList,
    act: async (p) => {
      await untilHydrated(p.getByRole("button", { name: "Find invoice" }));
      await p.locator("body").press("/");
      await expect(p.getByRole("dialog", { name: "Find an invoice" })).toBeVisible();
    },
  },
  {
    name: "cancel dialog open",
    path: () => invoice.pending,
    ready: timeline,
    act: async (p) => {
      const cancel = p.getByRole("button", { name: "Cancel invoice" });
      await untilHydrated(cancel);
      await cancel.click();
      await expect(p.getByRole("alertdialog", { name: /^Cancel invoice for order/ })).toBeVisible();
    },
  },
  {
    name: "mobile nav menu open",
    path: "/invoices",
    ready: invoiceList,
    act: openMenu((p) => p.getByRole("button", { name: "Main menu" })),
    widths: [390],
  },
];

for (const check of [...PAGES, ...STATES]) {
  for (const scheme of ["light", "dark"] as const) {
    for (const width of check.widths ?? ([1440, 390] as const)) {
      const title = `axe: ${check.name}, ${scheme}, ${width} px`;
      test(title, async () => {
        await open(typeof check.path === "string" ? check.path : check.path(), scheme, width, check.ready);
        await check.act?.(page);
        expect(await seriousFindings(page, !check.act), title).toEqual([]);
        if (width === 390) {
          const sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
          expect(sideways, `${title}: the page scrolls sideways`).toBe(false);
        }
        // For a person to look at (git-ignored): the pages whose colours and layout this work changed.
        if (!process.env.CI && SHOTS.has(check.name)) {
          await page.screenshot({ path: path.join(SCREENSHOTS, `a11y-${slug(check.name)}-${scheme}-${width}.png`), fullPage: true });
        }
      });
    }
  }
}

test("axe: sign-in page, light and dark, 1440 and 390 px", async ({ browser }) => {
  const signedOut = await browser.newContext();
  const p = await signedOut.newPage();
  try {
    const found: string[] = [];
    for (const scheme of ["light", "dark"] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390] as const) {
        await p.setViewportSize(WIDTHS[width]);
        await p.goto("/login");
        await expect(p.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
        for (const finding of await seriousFindings(p, true)) found.push(`${scheme} ${width}: ${finding}`);
      }
    }
    expect(found).toEqual([]);
  } finally {
    await signedOut.close();
  }
});
