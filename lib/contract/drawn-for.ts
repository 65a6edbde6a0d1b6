/**
 * The field every change sends with the id of the person its page was drawn for (lib/browser/page-person.tsx):
 * guardedAction refuses it with a 409 when someone else is signed in now (another tab signed in as them), so a
 * change is never made by a person who did not make it (ARCHITECTURE.md, "An ended session never loses work").
 */
export const DRAWN_FOR_FIELD = "drawn_for";

/**
 * Sent by a form whose page signs in again in place (lib/browser/action.ts): a 401 is answered as such instead of
 * the no-script way, off to sign in and back with the draft in the URL (guardedAction's `draftPath`).
 */
export const IN_PLACE_FIELD = "signs_in_in_place";
