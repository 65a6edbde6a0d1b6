/** Where the person's theme choice is kept in the browser; shared by the pre-paint script and the provider. */
export const THEME_STORAGE_KEY = "invoice-console:theme";

export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);
}
