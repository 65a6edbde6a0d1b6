"use client";

import { type ComponentProps, createContext, type KeyboardEvent, useContext, useId, useState } from "react";
import { cn } from "@/lib/browser/cn";

// The tabs pattern (WAI-ARIA APG, automatic activation): one Tab stop, arrow keys and Home/End move between the
// tabs and show each one's panel, the panel is labelled by its tab. Plain React rather than a library: a page's
// tabs are a few lines and this keeps them out of its first load.

type TabsState = { id: string; value: string; select: (value: string) => void };
const TabsContext = createContext<TabsState | null>(null);
const useTabs = () => useContext(TabsContext) as TabsState;
const part = (state: TabsState, kind: "tab" | "panel", value: string) => `${state.id}-${kind}-${value}`;

export function Tabs({ defaultValue, className, ...props }: ComponentProps<"div"> & { defaultValue: string }) {
  const [value, select] = useState(defaultValue);
  return (
    <TabsContext.Provider value={{ id: useId(), value, select }}>
      <div className={className} {...props} />
    </TabsContext.Provider>
  );
}

export function TabsList({ className, ...props }: ComponentProps<"div">) {
  function move(event: KeyboardEvent<HTMLDivElement>) {
    const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (at < 0 || next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length];
    tab.focus();
    tab.click();
  }
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      onKeyDown={move}
      className={cn("inline-flex items-center gap-1 rounded-lg bg-muted p-1", className)}
      {...props}
    />
  );
}

export function TabsTrigger({ value, className, ...props }: ComponentProps<"button"> & { value: string }) {
  const state = useTabs();
  const active = state.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={part(state, "tab", value)}
      aria-controls={part(state, "panel", value)}
      aria-selected={active}
      data-state={active ? "active" : "inactive"}
      tabIndex={active ? 0 : -1}
      onClick={() => state.select(value)}
      className={cn(
        "inline-flex h-control-sm items-center rounded-md px-3 text-sm font-medium text-muted-foreground hover:text-foreground data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-xs",
        className,
      )}
      {...props}
    />
  );
}

/** A tab's panel; `forceMount` keeps it mounted while hidden (its className then hides it), so nothing typed in it is lost. */
export function TabsContent({ value, forceMount, className, ...props }: ComponentProps<"div"> & { value: string; forceMount?: boolean }) {
  const state = useTabs();
  const active = state.value === value;
  if (!active && !forceMount) return null;
  return (
    <div
      role="tabpanel"
      id={part(state, "panel", value)}
      aria-labelledby={part(state, "tab", value)}
      data-state={active ? "active" : "inactive"}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern: a panel is a Tab stop after its tabs
      tabIndex={0}
      className={cn("mt-4", className)}
      {...props}
    />
  );
}
