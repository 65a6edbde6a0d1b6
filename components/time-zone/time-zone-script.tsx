import { TIME_ZONE_COOKIE } from "@/lib/time-zone";

/**
 * Tells the server the browser's time zone, so pages arrive with times already in it (lib/time-zone.ts): a
 * cookie, written before anything else runs on every page, the sign-in page included, and rewritten only
 * when the zone changed. Like the theme script it carries the request's CSP nonce and runs before React.
 */
export function TimeZoneScript({ nonce }: { nonce: string | undefined }) {
  const name = JSON.stringify(TIME_ZONE_COOKIE);
  const code = `(function(){try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(!z)return;var v=encodeURIComponent(z);var m=document.cookie.match(new RegExp("(?:^|; )"+${name}+"=([^;]*)"));if(m&&m[1]===v)return;document.cookie=${name}+"="+v+"; path=/; max-age=31536000; samesite=lax"+(location.protocol==="https:"?"; secure":"");}catch(e){}})();`;
  // The browser hides a nonce from the DOM once read, so hydration would see nonce="" and warn.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: code }} />;
}
