import AxeBuilder from "@axe-core/playwright";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { expect, type Page, test } from "@playwright/test";
import { type ConsoleServer, startConsoleServer } from "../test/console-server";
import { signInAgainWithPassword } from "./fixtures";

/**
 * Authenticator-app codes: a person sets one up on their Account page and signs in with a code, then with a
 * recovery code; a code used once is refused. An admin, whose role this console requires a second factor for,
 * is sent to set one up right after their password. A console of its own, started with TWO_FACTOR_REQUIRED_ROLES.
 */
const ADMIN = { email: "ops@two-factor.test", password: "a long enough password" };
const VIEWER = { email: "viewer@example.com", password: "sandbox-demo" };
let consoleServer: ConsoleServer;
/** The viewer's recovery codes not used yet, for the journeys after the first. */
let viewerRecovery: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  consoleServer = await startConsoleServer({
    TWO_FACTOR_REQUIRED_ROLES: "admin",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
});

test.afterAll(async () => {
  await consoleServer?.stop();
});

const at = (path: string) => `${consoleServer.url}${path}`;

/** The app's code `offset` steps from now, computed from the key URI the page shows (RFC 6238, better-auth's utils). */
function appFor(uri: string) {
  const key = base32.decode(new URL(uri).searchParams.get("secret")!);
  const otp = createOTP(new TextDecoder().decode(key));
  return (offset = 0) => otp.hotp(Math.floor(Date.now() / 30_000) + offset);
}

async function passwordStep(page: Page, person: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto(at("/login?next=%2Foverview"));
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function noSeriousFindings(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa", "best-practice"]).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

/** Sets up the app on the page in view (Account or /two-factor); answers the app and the recovery codes. */
async function setUp(page: Page, password: string) {
  const section = page.locator("#two-factor");
  await section.getByLabel("Your password").fill(password);
  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  const uri = (await page.getByTestId("otpauth-uri").textContent())!;
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  // The setup key to type is the URI's secret, in groups of four.
  const key = (await page.getByTestId("setup-key").textContent())!;
  expect(key.replaceAll(" ", "")).toBe(new URL(uri).searchParams.get("secret"));
  const app = appFor(uri);
  await page.getByLabel("Authentication code").fill(await app());
  await page.getByRole("button", { name: "Confirm" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  // Confirming hashes the secret and the ten codes and stores them: seconds on a busy machine.
  await expect(codes).toHaveCount(10, { timeout: 15_000 });
  await expect(page.getByRole("link", { name: "Download as a .txt file" })).toHaveAttribute("download", /\.txt$/);
  return { app, recovery: await codes.allTextContents() };
}

test("a person sets up an authenticator app, signs in with a code and a recovery code, and a used code is refused", async ({ page }) => {
  await passwordStep(page, VIEWER);
  await expect(page).toHaveURL(/\/overview$/);
  await page.goto(at("/account"));
  const { app, recovery } = await setUp(page, VIEWER.password);
  viewerRecovery = recovery.slice(1);
  await expect(page.getByTestId("two-factor-state")).toContainText("On");

  // The confirming code's step is spent; the next step's code is still inside the window.
  const next = await app(1);
  await passwordStep(page, VIEWER);
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeVisible();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await noSeriousFindings(page);
  await code.fill(next);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/overview$/);

  await passwordStep(page, VIEWER);
  await page.getByLabel("Authentication code").fill(recovery[0]);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/overview$/);

  await passwordStep(page, VIEWER);
  await page.getByLabel("Authentication code").fill(next);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("That code was used already")).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("the sign-in-again dialog asks for the code after the password, then sends the change", async ({ page, context }) => {
  // Two sign-ins, a sign-out in another tab and the dialog's two steps: more than the default budget on a busy machine.
  test.setTimeout(60_000);
  // The viewer has the app from the journey above: signed in with a recovery code, as the app's steps are spent.
  await passwordStep(page, VIEWER);
  await page.getByLabel("Authentication code").fill(viewerRecovery.shift()!);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/overview$/);
  await page.goto(at("/account"));
  const zone = page.getByLabel("Time zone");
  await expect(zone).toBeEnabled();
  // The session ends in another tab; this one still sends its cookie, which names no session now.
  const cookies = await context.cookies();
  const other = await context.newPage();
  await other.goto(at("/rates"));
  await expect(async () => {
    await other.getByRole("button", { name: /Account menu for/ }).click();
    await other.getByRole("menuitem", { name: "Sign out" }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await other.close();
  await context.addCookies(cookies);

  await zone.selectOption("Europe/Lisbon");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const dialog = await signInAgainWithPassword(page, VIEWER.email, VIEWER.password);
  const code = dialog.getByLabel("Authentication code");
  await expect(code).toBeVisible();
  await code.fill("000000");
  await dialog.getByRole("button", { name: "Sign in and finish" }).click();
  await expect(dialog.getByText(/does not match|used already/)).toBeVisible();
  await expect(page.getByText("Days and times are now in Europe/Lisbon.")).toHaveCount(0);
  await code.fill(viewerRecovery.shift()!);
  await dialog.getByRole("button", { name: "Sign in and finish" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Days and times are now in Europe/Lisbon.")).toBeVisible();
});

test("an admin required to use a second factor is sent to set one up and can do nothing else until then", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await passwordStep(page, ADMIN);
  await expect(page).toHaveURL(/\/two-factor$/);
  await expect(page.getByRole("heading", { name: "Set up a second factor", level: 1 })).toBeVisible();
  await noSeriousFindings(page);
  await page.goto(at("/invoices"));
  await expect(page).toHaveURL(/\/two-factor$/);
  const api = await page.request.get(at("/api/invoices"));
  expect(api.status()).toBe(403);
  expect(await api.json()).toMatchObject({ code: "second_factor_required" });

  await setUp(page, ADMIN.password);
  await page.getByRole("link", { name: "Continue to the console" }).click();
  await expect(page).toHaveURL(/\/overview$/);
  expect((await page.request.get(at("/api/invoices"))).status()).toBe(200);
});
