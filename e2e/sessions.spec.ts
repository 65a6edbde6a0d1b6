import { expect, type Page, test } from "@playwright/test";
import { seriousFindings, signIn, untilHydrated } from "./fixtures";

/**
 * Sessions a person can see and end: signed in from two browsers, the first sees both on Account and signs the
 * other out, whose next page goes to sign-in. Then axe on Account at phone width, in both themes.
 */

const sessionRows = (page: Page) => page.getByRole("list", { name: "Your sessions" }).getByRole("listitem");

test("a person ends their other session from Account, and that browser's next page asks to sign in", async ({ browser }) => {
  test.setTimeout(120_000);
  const first = await browser.newContext();
  const second = await browser.newContext();
  const here = await first.newPage();
  const there = await second.newPage();
  // A fresh server draws its first page slowly.
  await here.goto("/login");
  await expect(here.getByRole("button", { name: /Sign in as viewer/ })).toBeVisible({ timeout: 30_000 });

  await signIn(here, "viewer", "/account");
  await here.goto("/account");
  // Earlier journeys may have left the demo person signed in elsewhere: start from this session alone.
  const everywhereElse = here.getByRole("button", { name: "Sign out everywhere else" });
  if (await everywhereElse.isVisible()) {
    await untilHydrated(everywhereElse);
    await everywhereElse.click();
    await expect(here.getByRole("status").filter({ hasText: /Signed out of \d+ other session/ })).toBeVisible();
  }
  await expect(sessionRows(here)).toHaveCount(1);

  await signIn(there, "viewer", "/overview");
  await here.reload();
  await expect(sessionRows(here)).toHaveCount(2);
  const mine = sessionRows(here).filter({ hasText: "This session" });
  await expect(mine).toHaveCount(1);
  await expect(mine.getByRole("button", { name: /^Sign out/ })).toHaveCount(0);

  const other = sessionRows(here).filter({ hasNotText: "This session" });
  const signOut = other.getByRole("button", { name: /^Sign out / });
  await untilHydrated(signOut);
  await signOut.click();
  await expect(here.getByRole("status").filter({ hasText: /Signed out of .+ on .+\./ })).toBeVisible();
  await expect(sessionRows(here)).toHaveCount(1);

  await there.goto("/overview");
  await expect(there).toHaveURL(/\/login/);

  // The sign-ins just made are on the list, with how and from where.
  const signIns = here.getByRole("list", { name: "Recent sign-ins" }).getByRole("listitem");
  await expect(signIns.first()).toContainText("Signed in");
  await expect(signIns.first()).toContainText("Password");

  for (const scheme of ["light", "dark"] as const) {
    await here.emulateMedia({ colorScheme: scheme });
    await here.setViewportSize({ width: 390, height: 844 });
    await here.goto("/account");
    await expect(here.getByRole("heading", { name: "Signed-in sessions" })).toBeVisible();
    expect(await seriousFindings(here, true), `${scheme} theme at 390 px`).toEqual([]);
  }
  await first.close();
  await second.close();
});
