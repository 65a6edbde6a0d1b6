"use client";

import dynamic from "next/dynamic";
import { type ReactNode, useEffect, useRef, useState } from "react";

// The palette (cmdk, the query, the result rows) loads on first use, so no page's first-load JS carries it.
const loadPalette = () => import("./search-palette");
const SearchPalette = dynamic(loadPalette, { ssr: false });

/** Typing "/" in a field is text, not a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest("[role=dialog]") !== null;
}

/**
 * The header's search button, and the shortcuts that open the palette anywhere: "/" and Ctrl+K (⌘K). The
 * button's content (icon, label, key hint) comes drawn from the server layout as `children`.
 */
export function SearchLauncher({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  // Where focus goes back on close: what had it when the palette opened (the button, a row, the page).
  const opener = useRef<HTMLElement | null>(null);
  const remember = () => (opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null);
  // Keys typed after the shortcut, before the palette (loaded on first use) has its field focused: handed to it
  // as it opens, so "/" then "O" at once searches "O…", not "…".
  const typedAhead = useRef<string | null>(null);
  const takeTypedAhead = () => {
    const typed = typedAhead.current ?? "";
    typedAhead.current = null;
    return typed;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `remember` only writes a ref; the listener is added once
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const inPalette = document.activeElement?.closest("[data-search-palette]") != null;
      if (typedAhead.current !== null && !inPalette && event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        typedAhead.current += event.key;
        return;
      }
      const commandK = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k";
      const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target);
      if (!commandK && !slash) return;
      event.preventDefault();
      if (!document.querySelector("[data-search-palette]")) remember();
      if (!inPalette) typedAhead.current = "";
      setUsed(true);
      setOpen((was) => (commandK ? !was : true));
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <>
      <button
        type="button"
        // The design's secondary button (components/ui/button.tsx) as plain classes: every page's first load
        // does without the Button's class merging.
        className="inline-flex shrink-0 items-center justify-center rounded-md text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 h-control-sm gap-2 border border-input bg-card px-2.5 text-muted-foreground shadow-xs hover:bg-accent hover:text-accent-foreground"
        aria-keyshortcuts="/ Control+K Meta+K"
        onPointerEnter={() => void loadPalette()}
        onFocus={() => void loadPalette()}
        onClick={(event) => {
          opener.current = event.currentTarget;
          setUsed(true);
          setOpen(true);
        }}
      >
        {children}
      </button>
      {used && <SearchPalette open={open} onOpenChange={setOpen} returnFocus={() => opener.current} typedAhead={takeTypedAhead} />}
    </>
  );
}
