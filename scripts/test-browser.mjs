// `npm test` brings its browser: Playwright drives CHROMIUM_PATH, else /usr/bin/chromium, else its own
// Chromium (playwright.config.ts). When none of them is there, Playwright's own is installed
// (`npx playwright install chromium`), saying so; when that cannot be done (no network, a proxy), the one command
// that fixes it is printed and the browser step counts as 1 failed.
import { existsSync } from "node:fs";

/**
 * @param {{
 *   env?: NodeJS.ProcessEnv,
 *   exists?: (path: string) => boolean,
 *   ownChromium: () => Promise<string | undefined>,
 *   install: () => Promise<boolean>,
 *   note: (message: string) => void,
 *   debianLike?: boolean,
 * }} options
 *   `ownChromium`: where Playwright's own Chromium is (or would be) installed; `install`: runs
 *   `npx playwright install chromium`, true when it succeeded.
 * @returns {Promise<boolean>} whether a Chromium is there for Playwright.
 */
export async function ensureChromium({ env = process.env, exists = existsSync, ownChromium, install, note, debianLike }) {
  if (env.CHROMIUM_PATH) {
    if (exists(env.CHROMIUM_PATH)) return true;
    note(
      `CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which does not exist: set it to a Chromium, or unset it. Browser step counted as 1 failed.`,
    );
    return false;
  }
  if (exists("/usr/bin/chromium")) return true;
  const own = await ownChromium().catch(() => undefined);
  if (own && exists(own)) return true;
  note("no Chromium found (CHROMIUM_PATH unset, no /usr/bin/chromium): installing Playwright's own, `npx playwright install chromium` …");
  const installed = await install().catch(() => false);
  if (installed && (!own || exists(own))) {
    note("Playwright's Chromium is installed.");
    return true;
  }
  const fix =
    (debianLike ?? exists("/etc/debian_version")) ? "sudo apt-get install -y chromium" : "npx playwright install --with-deps chromium";
  note(
    `Playwright's Chromium could not be installed (no network, or a proxy in the way?). This fixes it: \`${fix}\`, then run \`npm test\` again. Browser step counted as 1 failed; the browser tests did not run.`,
  );
  return false;
}
