import { expect, test } from "@playwright/test";
import { chooseStatuses, formAlert, invoiceRows, signIn, statusFilter, untilInteractive } from "./fixtures";

/** People sign in with email and password, see who they are, and are sent back to where they were going. */

test("a page asked for without a session leads to sign-in and back, query included", async ({ page }) => {
  await page.goto("/invoices?status=expired&page=2");
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel("Email").fill("support@example.com");
  await page.getByLabel("Password").fill("sandbox-demo");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/invoices\?status=expired&page=2$/);
  await expect(statusFilter(page)).toHaveText("Expired");
  await expect(page.getByTestId("user-role")).toHaveText("Support");
  // The browser is now a known device of hers: a network others' guesses blocked does not refuse her here.
  const device = (await page.context().cookies()).find((c) => c.name === "console_known_device");
  expect(device).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
});

test("/sign-in, as people type it, is the sign-in page (not a page to land on after signing in)", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page).toHaveURL((url) => url.pathname === "/login" && !url.searchParams.has("next"));
});

test("bad input gets a clear message and keeps the email", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Enter your email address.")).toBeVisible();
  await expect(page.getByText("Enter your password.")).toBeVisible();

  await page.getByLabel("Email").fill("viewer@example.com");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(formAlert(page)).toContainText("That email and password do not match an account");
  await expect(page.getByLabel("Email")).toHaveValue("viewer@example.com");

  await page.getByLabel("Email").fill("nobody-at-all@example.com");
  await page.getByLabel("Password").fill("whatever-it-is");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(formAlert(page)).toContainText("That email and password do not match an account");
});

test("after five failed sign-ins for one account, that address waits, with a message saying for how long", async ({ page }) => {
  await page.goto("/login");
  for (let attempt = 1; attempt <= 6; attempt++) {
    await page.getByLabel("Email").fill("locked-out@example.com");
    await page.getByLabel("Password").fill(`wrong-${attempt}`);
    // Each attempt is a server action: wait for its answer before the next.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
  }
  const wait = /Too many failed attempts for this account\. Try again in (\d+) seconds?\./;
  await expect(formAlert(page)).toContainText(wait);
  // The window is 30 s from the fifth failure; how much of it is left depends on the machine, not the product.
  const seconds = Number(wait.exec((await formAlert(page).textContent()) ?? "")?.[1]);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(30);
});

test("the user menu shows who is signed in; sign-out ends the session and forgets the list's search", async ({ page }) => {
  await signIn(page, "finance", "/invoices?q=SO-1&currency=BTC");
  // "← All invoices" comes back to this view (the browser keeps it)…
  const remembered = () => page.evaluate(() => localStorage.getItem("invoice-console:list-search"));
  await expect.poll(remembered).toContain("q=SO-1");
  await page.getByRole("button", { name: /Account menu for finance@example\.com/ }).click();
  await expect(
    page.getByText("Viewer, plus records archived invoices, marks invoices completed, approves changes and reads the activity log."),
  ).toBeVisible();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login\?signed_out=1/);
  await expect(page.getByText("You are signed out.")).toBeVisible();
  // …until sign-out: the next person at this browser does not see what was searched for.
  expect(await remembered()).toBeNull();
  await page.goto("/invoices");
  await expect(page).toHaveURL(/\/login/);
  const api = await page.request.get("/api/invoices");
  expect(api.status()).toBe(401);
});

test("an admin manages users; other roles do not see the page", async ({ page }) => {
  await signIn(page, "viewer");
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.goto("/users");
  await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  await expect(page.getByText("You are signed in as viewer, which does not open this page.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to all invoices" })).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, "admin");
  await page.getByRole("link", { name: "Users" }).click();
  const email = `new-${Date.now()}@example.com`;
  await page.getByLabel("Name").fill("Nora New");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("support");
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} is added as Support.` })).toBeVisible();
  const invitation = new URL((await page.getByTestId("issued-link").textContent())!).pathname;
  await expect(page.getByRole("row").filter({ hasText: email })).toBeVisible();

  const row = page.getByRole("row").filter({ hasText: email });
  await row.getByLabel(`Role of ${email}`).selectOption("finance");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByText("Saved")).toBeVisible();
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("finance");

  // The new person chooses their password from the invitation and is signed in (e2e/invitations.spec.ts has more).
  const newPage = await page.context().browser()!.newPage();
  await newPage.goto(invitation);
  await newPage.getByLabel("Password", { exact: true }).fill("a-long-enough-password");
  await newPage.getByLabel("The same password again").fill("a-long-enough-password");
  await newPage.getByRole("button", { name: "Save password and sign in" }).click();
  await expect(newPage.getByTestId("user-role")).toHaveText("Finance");

  // They leave: the admin disables them, which ends their session and their sign-in.
  await row.getByRole("button", { name: `Disable ${email}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Disable ${email}?` });
  await expect(confirm).toContainText("They are signed out now");
  await confirm.getByRole("button", { name: `Disable ${email}` }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByText("Disabled", { exact: true })).toBeVisible();
  await newPage.reload();
  await expect(newPage).toHaveURL(/\/login/);
  await newPage.getByLabel("Email").fill(email);
  await newPage.getByLabel("Password").fill("a-long-enough-password");
  await newPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(formAlert(newPage)).toContainText("This account is disabled.");
  await newPage.close();
});

test("every response carries the security headers, errors and redirects included", async ({ page }) => {
  const requests: [string, string, number][] = [
    ["GET", "/login", 200],
    ["GET", "/api/health", 200],
    ["GET", "/api/invoices", 401],
    ["GET", "/invoices", 307],
    ["GET", "/invoices/", 308],
    ["GET", "/api/invoices/%E0%A4%A", 404],
    ["GET", "/api/no-such-endpoint", 404],
    ["DELETE", "/api/invoices", 405],
    ["TRACE", "/invoices", 405],
    ["GET", "/_next/static/no-such-file.js", 404],
  ];
  for (const [method, path, status] of requests) {
    const response = await page.request.fetch(path, { method, maxRedirects: 0 });
    expect(response.status(), `${method} ${path}`).toBe(status);
    const headers = response.headers();
    if (status >= 400 && path.startsWith("/api/")) expect(headers["content-type"], path).toBe("application/problem+json");
    if (status === 405) expect(headers.allow, path).toContain("GET");
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"], path).not.toContain("unsafe-eval");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  }
});

test("a session that ends mid-work sends the person to sign in and back to the same view", async ({ page }) => {
  await signIn(page, "viewer", "/invoices?currency=ETH&sort_by=fiat_amount");
  await expect(page.getByLabel("Currency")).toHaveValue("ETH");
  // The page has settled (its rates strip loaded after it): the session ends while the person works in it.
  await untilInteractive(page);
  await page.context().clearCookies();
  // The tick's rows are held on their way for a moment: the address bar already says the tick, so a request of
  // the page that meets the ended session meanwhile (the rates strip's, say) also returns there.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === "/invoices" && url.searchParams.get("status") === "completed",
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await statusFilter(page).click();
  await page.getByRole("checkbox", { name: "Completed" }).click();
  await expect(page.getByRole("progressbar", { name: "Loading invoices" })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === "/invoices" && url.searchParams.get("status") === "completed");
  release();
  await expect(page).toHaveURL(/\/login\?next=/);
  // Whichever request of the page met the ended session first (the tick's own, or the rates strip's), the
  // sign-in returns to the view with the tick: the address bar already said it when they were sent.
  await expect(page.getByText(/Sign in (again )?to continue where you were\./)).toBeVisible();
  await page.getByRole("button", { name: /Sign in as viewer/ }).click();
  await expect(page).toHaveURL(/\/invoices\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get("status")).toBe("completed");
  expect(url.searchParams.get("currency")).toBe("ETH");
  expect(url.searchParams.get("sort_by")).toBe("fiat_amount");
  await expect(statusFilter(page)).toHaveText("Completed");
  await expect(page.getByLabel("Currency")).toHaveValue("ETH");
});

test("no response of a browsing session carries the upstream API key", async ({ page }) => {
  const bodies: { url: string; text: string }[] = [];
  page.on("response", async (response) => bodies.push({ url: response.url(), text: await response.text().catch(() => "") }));
  await signIn(page, "admin");
  await untilInteractive(page);
  await chooseStatuses(page, ["Completed"]);
  await invoiceRows(page).first().locator("td:nth-child(4)").click();
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
  await page.getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(bodies.length).toBeGreaterThan(10);
  // The demo key, and the console's own key on the embedded sandbox (random: its fixed prefix).
  for (const { url, text } of bodies) for (const key of ["sk_test_demo_full", "sk_test_console_"]) expect(text, url).not.toContain(key);
});

test("after sign-in, `next` can only lead to a page of the console", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const bypasses = [
    "//evil.example",
    "/.//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2e%2e//evil.example",
    "/invoices/..//evil.example",
    "/\\evil.example",
    "/./\\evil.example",
    "/\t/evil.example",
    "https://evil.example",
    "javascript:alert(1)",
  ];
  // Not signed in: the sign-in form carries `next` through.
  await page.goto(`/login?next=${encodeURIComponent(bypasses[1])}`);
  await page.getByRole("button", { name: /Sign in as viewer/ }).click();
  await expect(page).toHaveURL(`${origin}/overview`);
  // Signed in: the sign-in page redirects at once.
  for (const next of bypasses) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    expect(new URL(page.url()).origin, next).toBe(origin);
    await expect(page.getByRole("heading", { name: "Overview", level: 1 }), next).toBeVisible();
  }
});
