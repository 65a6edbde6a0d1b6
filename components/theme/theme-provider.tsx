"use client";

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useSyncExternalStore } from "react";
import { isThemeChoice, THEME_STORAGE_KEY, type ThemeChoice } from "./theme-storage";

type ThemeContextValue = {
  /** What the person chose: a theme, or "follow the system". */
  theme: ThemeChoice;
  /** What is on screen now. */
  resolvedTheme: "light" | "dark";
  setTheme: (theme: ThemeChoice) => void;
};

const ThemeContext = createContext<ThemeContextValue | null>(null);
const DARK_QUERY = "(prefers-color-scheme: dark)";
const CHANGE_EVENT = "invoice-console:theme-change";

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(stored) ? stored : "system";
  } catch {
    return "system";
  }
}

// Other tabs write the same key: a choice made in one tab shows in all (the storage event).
function subscribeChoice(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

function subscribeSystem(onChange: () => void) {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * Puts the class for the current choice on <html>. Called on a change, never on mount: the pre-paint script
 * already did it, and a mount-time call would run with the server's guess ("system") for one frame — a flash.
 */
function applyCurrent() {
  const choice = readChoice();
  const resolved = choice === "system" ? (window.matchMedia(DARK_QUERY).matches ? "dark" : "light") : choice;
  const root = document.documentElement;
  root.classList.remove(resolved === "dark" ? "light" : "dark");
  root.classList.add(resolved);
  root.style.colorScheme = resolved;
}

/**
 * Keeps the theme class on <html> in step with the person's choice and, for "system", with the operating
 * system. The first paint is the pre-paint script's job (theme-script.tsx); this takes over after hydration.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  // The server cannot know the choice: it renders "system", and the browser's value follows on hydration.
  const theme = useSyncExternalStore(subscribeChoice, readChoice, () => "system" as const);
  const systemDark = useSyncExternalStore(
    subscribeSystem,
    () => window.matchMedia(DARK_QUERY).matches,
    () => false,
  );
  const resolvedTheme = theme === "system" ? (systemDark ? "dark" : "light") : theme;

  useEffect(() => {
    // A page Next.js renders only in the browser (the 403 of forbidden()) arrives as an error shell without
    // the pre-paint script, and a script React inserts never runs: set the class here, from the real choice.
    const root = document.documentElement;
    if (!root.classList.contains("light") && !root.classList.contains("dark")) applyCurrent();
    // Another tab's choice, or the system switching while "system" is chosen.
    const offChoice = subscribeChoice(applyCurrent);
    const offSystem = subscribeSystem(applyCurrent);
    return () => {
      offChoice();
      offSystem();
    };
  }, []);

  const setTheme = useCallback((next: ThemeChoice) => {
    try {
      if (next === "system") localStorage.removeItem(THEME_STORAGE_KEY);
      else localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage refused (private mode, quota): the choice cannot be kept, and the screen stays as it is.
    }
    // The same-tab signal: subscribers re-read the choice and the class on <html> follows.
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);

  const value = useMemo(() => ({ theme, resolvedTheme, setTheme }), [theme, resolvedTheme, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useTheme needs a ThemeProvider above it (app/providers.tsx).");
  return value;
}
