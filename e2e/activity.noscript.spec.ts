import { expect, test } from "@playwright/test";

/** The Activity page without script: the filters are a GET form, the pages are links. */
test("filters and pages work without script", async ({ page }) => {
  await page.goto("/login?next=%2Factivity");
  await page.getByRole("button", { name: /Sign in as admin/ }).click();
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  await page.getByText("Kinds of activity: all").click();
  await page.getByLabel("Signed in", { exact: true }).check();
  await page.getByLabel("Added a person", { exact: true }).check();
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=sign_in&action=user\.created|action=user\.created&action=sign_in/);
  const entries = page.getByTestId("activity-entry");
  await expect(entries.first()).toBeVisible();
  for (const text of await entries.allTextContents()) expect(text).toMatch(/Signed in|Added a person/);
  await expect(page.getByText("Kinds of activity (2 chosen)")).toBeVisible();
  // More than a page of entries: sign-ins of this browser's own (the console's sign-in-again route).
  for (let i = 0; i < 26; i++) {
    const again = await page.request.post("/api/session/sign-in", {
      data: { demo: "admin" },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(again.ok()).toBe(true);
  }
  await page.goto("/activity?page_size=25&page=2");
  await expect(page.locator("#activity-range")).toHaveText(/^26–/);
  await page.getByRole("link", { name: "Previous" }).click();
  await expect(page.locator("#activity-range")).toHaveText(/^1–25 of /);
});
