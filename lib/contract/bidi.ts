/*
 * Bidirectional control characters (U+202A–U+202E, U+2066–U+2069, and the marks U+200E, U+200F, U+061C) reorder
 * the text around them: "invoice\u202Egnp.exe" reads as another name. Names the console keeps refuse them; names
 * it only shows (an order name from the provider) are shown isolated (<bdi>), so they cannot reach past themselves.
 */
export const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export const NO_BIDI_CONTROLS = "must not contain characters that change the text's direction (such as U+202E)";

export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROL.test(text);
}

/** Controls (C0, DEL, C1) never belong in an id or a name; PostgreSQL's text cannot even hold a NUL. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;
/** The same but tab and line breaks, which a name written on several lines may hold. */
export const CONTROL_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

export const NO_CONTROLS = "must not contain control characters or characters that change the text's direction (such as U+202E)";

/** Whether an id (or, with `lines`, a name that may span lines) holds a control character or a bidirectional control. */
export function hasControlOrBidi(text: string, { lines = false } = {}): boolean {
  return (lines ? CONTROL_BUT_LINES : CONTROL).test(text) || BIDI_CONTROL.test(text);
}
