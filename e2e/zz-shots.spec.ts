import { expect, test } from "@playwright/test";
import { signIn } from "./fixtures";

for (const [w, h] of [[1280, 800], [390, 844]] as const) {
  for (const scheme of ["light", "dark"] as const) {
    test(`selection ${w} ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page, "support");
      await page.goto("/invoices");
      const boxes = page.getByRole("checkbox", { name: /^Select invoice / }).filter({ visible: true });
      await expect(boxes.first()).toBeEnabled();
      const top = () => boxes.nth(2).evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
      const before = await top();
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      expect(await top()).toBe(before);
      await page.screenshot({ path: `/tmp/shots/sel-${w}-${scheme}.png` });
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.screenshot({ path: `/tmp/shots/sel-${w}-${scheme}-bottom.png` });
    });
  }
}
