"use client";

import { type ComponentType, type ReactNode, useEffect, useState } from "react";
import type { SavedView } from "@/lib/contract/saved-view";

/**
 * A control whose code loads right after the page (the list's first load is its rows and forms):
 * the server draws `placeholder` (the same button, inert for that moment), then the real one takes its place.
 */
function useLoaded<P>(load: () => Promise<ComponentType<P>>): ComponentType<P> | null {
  const [Loaded, setLoaded] = useState<ComponentType<P> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once
  useEffect(() => {
    let live = true;
    void load().then((component) => live && setLoaded(() => component));
    return () => {
      live = false;
    };
  }, []);
  return Loaded;
}

/** The list's Export menu (export-menu.tsx), loaded after the page. */
export function LazyExportMenu({ placeholder }: { placeholder: ReactNode }) {
  const ExportMenu = useLoaded(() => import("../export/export-menu").then((m) => m.ExportMenu));
  return ExportMenu ? <ExportMenu /> : placeholder;
}

/** "Save view" (save-view.tsx), loaded after the page. */
export function LazySaveView({ views, placeholder }: { views: SavedView[]; placeholder: ReactNode }) {
  const SaveView = useLoaded(() => import("./save-view").then((m) => m.SaveView));
  return SaveView ? <SaveView views={views} /> : placeholder;
}

/** "Open by invoice or order id" (go-to-invoice.tsx), loaded after the page; before, the server's plain form searches the list. */
export function LazyGoToInvoice({ placeholder }: { placeholder: ReactNode }) {
  const GoToInvoice = useLoaded(() => import("./go-to-invoice").then((m) => m.GoToInvoice));
  return GoToInvoice ? <GoToInvoice /> : placeholder;
}
