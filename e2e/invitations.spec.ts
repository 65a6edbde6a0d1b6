import { type Browser, expect, type Page, test } from "@playwright/test";
import { seriousFindings, signIn, untilHydrated } from "./fixtures";

/**
 * Nobody knows another person's password: an admin adds a person and hands over a one-time invitation (never a
 * password); the person chooses their own in a browser of their own and is signed in. A reset link works the same
 * way, once, and ends the person's other sessions.
 */

const run = Date.now().toString(36);
const email = `invited-${run}@example.com`;
const chosen = "lantern orchard velvet";
const renewed = "meadow quartz bicycle";
const changed = "harbor tulip sextant";

/** The path of a link as the Users page shows it (its host is PUBLIC_URL's, which this run does not set). */
async function shownLinkPath(page: Page): Promise<string> {
  const link = page.getByTestId("issued-link").filter({ visible: true });
  await expect(link).toHaveText(/\/(invite|reset)\/[A-Za-z0-9_-]{43}$/);
  return new URL((await link.textContent())!).pathname;
}

/** A browser of the person's own: no cookie of the admin's. */
async function freshPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** The page works at 390 px in both themes: axe finds nothing serious, and nothing scrolls sideways. */
async function checkEveryWay(page: Page) {
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [1440, 390]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 844 });
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await seriousFindings(page, true), `${scheme} ${width}`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${scheme} ${width}`).toBe(true);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("an admin invites a person, who chooses their own password; a reset link works once and ends their other sessions", async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, "admin", "/users");
  await page.goto("/users");
  const add = page.locator("form").filter({ has: page.getByRole("button", { name: "Add user" }) });
  await untilHydrated(add.getByRole("button", { name: "Add user" }));
  // The admin never sees, sets or shares a password.
  await expect(add.getByLabel(/password/i)).toHaveCount(0);
  await add.getByLabel("Name").fill("Ivy Invited");
  await add.getByLabel("Email").fill(email);
  await add.getByLabel("Role", { exact: true }).selectOption("finance");
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(add.getByRole("status").filter({ hasText: `${email} is added as Finance.` })).toBeVisible();
  const invitation = await shownLinkPath(page);
  await add.getByRole("button", { name: "Copy link" }).click();
  expect(new URL(await page.evaluate(() => navigator.clipboard.readText())).pathname).toBe(invitation);
  // Shown once: after a reload the link is gone from the page.
  await page.reload();
  await expect(page.getByTestId("issued-link")).toHaveCount(0);

  // The person, in their own browser, by keyboard.
  const person = await freshPage(browser);
  await person.goto(invitation);
  await expect(person.getByRole("heading", { name: "Choose your password", level: 1 })).toBeVisible();
  await expect(person.getByText(`You are invited to Invoice Console as ${email}`)).toBeVisible();
  await checkEveryWay(person);
  const password = person.getByLabel("Password", { exact: true });
  await untilHydrated(person.getByRole("button", { name: "Save password and sign in" }));
  await password.focus();
  await person.keyboard.type("password1234");
  await person.keyboard.press("Tab");
  await person.keyboard.type("password1234");
  await person.keyboard.press("Enter");
  await expect(person.locator("#password-error")).toContainText("one of the most common passwords");
  await password.fill("too short");
  await person.getByLabel("The same password again").fill("too short");
  await person.keyboard.press("Enter");
  await expect(person.locator("#password-error")).toHaveText("must be at least 12 characters");
  await password.fill(chosen);
  await person.getByLabel("The same password again").fill(`${chosen}!`);
  await person.keyboard.press("Enter");
  await expect(person.locator("#password_again-error")).toHaveText("must be the same password again");
  // A refused form comes back empty: a password is never sent back to the page.
  await expect(password).toHaveValue("");
  await password.fill(chosen);
  await person.getByLabel("The same password again").fill(chosen);
  await person.keyboard.press("Enter");
  await expect(person).toHaveURL(/\/overview$/);
  await expect(person.getByTestId("user-role")).toHaveText("Finance");

  // Once only.
  const again = await freshPage(browser);
  await again.goto(invitation);
  await expect(again.getByRole("heading", { name: "This link does not work", level: 1 })).toBeVisible();
  await expect(again.getByText("This invitation has already been used. It works once.")).toBeVisible();
  await checkEveryWay(again);
  await again.getByRole("link", { name: "Go to sign in" }).click();
  await expect(again).toHaveURL(/\/login/);

  // A reset link from the Users page, shown once with Copy.
  await page
    .getByRole("button", { name: `Reset password of ${email}` })
    .filter({ visible: true })
    .click();
  const confirm = page.getByRole("alertdialog", { name: `Issue a password reset link for ${email}?` });
  await confirm.getByRole("button", { name: "Issue link" }).click();
  const shown = page.getByRole("dialog", { name: `Password reset link for ${email}` });
  await expect(shown).toBeVisible();
  const reset = await shownLinkPath(page);
  expect(reset).toMatch(/^\/reset\//);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  const elsewhere = await freshPage(browser);
  await elsewhere.goto(reset);
  await expect(elsewhere.getByRole("heading", { name: "Choose a new password", level: 1 })).toBeVisible();
  await checkEveryWay(elsewhere);
  await untilHydrated(elsewhere.getByRole("button", { name: "Save password and sign in" }));
  await elsewhere.getByLabel("New password").fill(renewed);
  await elsewhere.getByLabel("The same password again").fill(renewed);
  await elsewhere.getByRole("button", { name: "Save password and sign in" }).click();
  await expect(elsewhere).toHaveURL(/\/overview$/);
  await expect(elsewhere.getByTestId("user-role")).toHaveText("Finance");

  // The session the person had before is over; the link is spent.
  await person.reload();
  await expect(person).toHaveURL(/\/login/);
  await elsewhere.goto(reset);
  await expect(elsewhere.getByText("This password reset link has already been used. It works once.")).toBeVisible();
  await expect(elsewhere.getByLabel("New password")).toHaveCount(0);

  // The new password signs in; the first one no longer does.
  await person.getByLabel("Email").fill(email);
  await person.getByLabel("Password").fill(chosen);
  await person.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(person.locator('form [role="alert"]')).toContainText("do not match an account");
  await person.getByLabel("Password").fill(renewed);
  await person.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(person.getByTestId("user-role")).toHaveText("Finance");

  // On Account, the person changes it themselves, proving the current one; their other session ends.
  await person.goto("/account");
  const change = person.locator("form").filter({ has: person.getByRole("button", { name: "Change password" }) });
  await untilHydrated(change.getByRole("button", { name: "Change password" }));
  await change.getByLabel("Current password").fill("not my password");
  await change.getByLabel("New password").fill(changed);
  await change.getByLabel("The same password again").fill(changed);
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(person.locator("#current_password-error")).toHaveText("is not your current password");
  await expect(change.getByLabel("Current password")).toHaveValue("");
  await change.getByLabel("Current password").fill(renewed);
  await change.getByLabel("New password").fill(changed);
  await change.getByLabel("The same password again").fill(changed);
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(change.getByRole("status")).toHaveText("Your password is changed. Signed out of 1 other session.");
  await elsewhere.goto("/overview");
  await expect(elsewhere).toHaveURL(/\/login/);
  for (const p of [person, again, elsewhere]) await p.context().close();
});
