import { THEME_STORAGE_KEY } from "./theme-storage";

/**
 * Sets the theme class on <html> before the first paint, so a dark-theme person never sees a white flash.
 * It is the one inline script of the app and carries the request's CSP nonce (proxy.ts allows no other
 * inline script). Kept tiny and dependency-free: it runs before React.
 */
export function ThemeScript({ nonce }: { nonce: string | undefined }) {
  const code = `(function(){try{var p=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=p==="dark"||(p!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);var r=document.documentElement;r.classList.remove(d?"light":"dark");r.classList.add(d?"dark":"light");r.style.colorScheme=d?"dark":"light";}catch(e){}})();`;
  // The browser hides a nonce from the DOM once read, so hydration would see nonce="" and warn.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script (no input in it), run before first paint
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: code }} />;
}
