/**
 * The sign-in page that brings the person back to `path`, saying that their session ended (app/login reads
 * `ended`): `draft` when `path` holds a form's draft, which the page restores after sign-in, `1` otherwise. The
 * one builder of these links, for the browser (lib/browser/session-ended.ts) and server actions
 * (lib/console/bff/action.ts).
 */
export function signInAgainHref(path: string, ended: "1" | "draft" = "1"): string {
  return `/login?next=${encodeURIComponent(path)}&ended=${ended}`;
}
