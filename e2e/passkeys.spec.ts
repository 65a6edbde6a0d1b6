import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";
import { seriousFindings, signInAgainWithPassword } from "./fixtures";

/**
 * Passkeys in Chromium, with the DevTools protocol's virtual authenticator standing in for a fingerprint reader:
 * a person adds one on Account, then signs in with it alone; after a password it is the second step; and the
 * sign-in-again dialog takes it too, then sends the change. A console of its own at "localhost", since WebAuthn
 * refuses an IP address as the relying party.
 */
const FINANCE = { email: "finance@example.com", password: "sandbox-demo" };
let consoleServer: ConsoleServer;
// One browser whose authenticator keeps the passkey from journey to journey.
let context: BrowserContext;
let page: Page;
let authenticator: Awaited<ReturnType<typeof withAuthenticator>>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  consoleServer = await startConsoleServer({}, { publicHost: "localhost" });
  context = await browser.newContext();
  page = await context.newPage();
  authenticator = await withAuthenticator(context, page);
});

test.afterAll(async () => {
  await context?.close();
  await consoleServer?.stop();
});

const at = (path: string) => `${consoleServer.url}${path}`;

/** A platform authenticator that verifies the person (as a fingerprint would) and answers at once. */
async function withAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials };
}

async function passwordStep(page: Page) {
  await page.context().clearCookies();
  await page.goto(at("/login?next=%2Foverview"));
  await page.getByLabel("Email").fill(FINANCE.email);
  await page.getByLabel("Password").fill(FINANCE.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a person adds a passkey on Account, then signs in with it alone", async () => {
  await passwordStep(page);
  await expect(page).toHaveURL(/\/overview$/);

  await page.goto(at("/account"));
  const section = page.locator("#passkeys");
  const adding = section.getByRole("form", { name: "Add a passkey" });
  await adding.getByLabel("Name").fill("Work laptop");
  await adding.getByLabel("Your password").fill(FINANCE.password);
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expect(section.getByRole("status")).toContainText("Passkey “Work laptop” added");
  const entry = section.getByTestId("passkey");
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("Work laptop");
  await expect(entry).toContainText("Not yet");
  expect(await authenticator.credentials()).toHaveLength(1);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousFindings(page), scheme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });

  await context.clearCookies();
  await page.goto(at("/login?next=%2Finvoices"));
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/invoices$/);
  await page.goto(at("/account"));
  await expect(page.locator("#passkeys").getByTestId("passkey")).not.toContainText("Not yet");
});

test("after the password, the passkey is the second step", async () => {
  await passwordStep(page);
  await expect(page.getByText("Confirm it is you with your passkey")).toBeVisible();
  await expect(page.getByLabel("Authentication code")).toHaveCount(0);
  expect(await seriousFindings(page)).toEqual([]);
  await page.getByRole("button", { name: "Use your passkey" }).click();
  await expect(page).toHaveURL(/\/overview$/);
});

test("on a device without the passkey, the second step says so and signs nobody in", async ({ browser }) => {
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await withAuthenticator(other, otherPage);
  await passwordStep(otherPage);
  await otherPage.getByRole("button", { name: "Use your passkey" }).click();
  await expect(otherPage.getByText(/^You were not signed in/)).toBeVisible();
  await otherPage.goto(at("/overview"));
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();
});

test("the sign-in-again dialog asks for the passkey after the password, then sends the change", async () => {
  await page.goto(at("/account"));
  const zone = page.getByLabel("Time zone");
  await expect(zone).toBeEnabled();
  // The session ends in another tab; this one still holds its cookie, which no longer names a session.
  const cookies = await context.cookies();
  const otherTab = await context.newPage();
  await otherTab.goto(at("/rates"));
  await expect(async () => {
    await otherTab.getByRole("button", { name: /Account menu for/ }).click();
    await otherTab.getByRole("menuitem", { name: "Sign out" }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(otherTab).toHaveURL(/signed_out=1/);
  await otherTab.close();
  await context.addCookies(cookies);

  await zone.selectOption("Asia/Tokyo");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const dialog = await signInAgainWithPassword(page, FINANCE.email, FINANCE.password);
  await dialog.getByRole("button", { name: "Use your passkey" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Days and times are now in Asia/Tokyo.")).toBeVisible();
});

test("removing the passkey leaves the password alone", async () => {
  await page.goto(at("/account"));
  const section = page.locator("#passkeys");
  const removing = section.getByRole("form", { name: "Remove a passkey" });
  await removing.getByRole("button", { name: "Remove passkey Work laptop" }).click();
  await expect(removing.getByText("Enter your password.")).toBeVisible();
  await removing.getByLabel("Your password").fill(FINANCE.password);
  // Enter in the password field removes nothing: only a passkey's own Remove does.
  await removing.getByLabel("Your password").press("Enter");
  await expect(section.getByTestId("passkey")).toHaveCount(1);
  await removing.getByRole("button", { name: "Remove passkey Work laptop" }).click();
  await expect(section.getByRole("status")).toContainText("Passkey “Work laptop” removed");
  await expect(section.getByTestId("passkey")).toHaveCount(0);
  await passwordStep(page);
  await expect(page).toHaveURL(/\/overview$/);
});
