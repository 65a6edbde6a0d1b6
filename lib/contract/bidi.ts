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
