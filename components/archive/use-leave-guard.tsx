"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/ui/lazy-dialog";

/**
 * Asks before a half-filled form is left: the browser's own prompt when the tab is closed or reloaded, and a
 * dialog when a link in the console is followed (the App Router has no navigation hook to block).
 */
export function useLeaveGuard(active: boolean, what: string) {
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;

  useEffect(() => {
    if (!active) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    const click = (event: MouseEvent) => {
      if (
        !activeRef.current ||
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
      const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!link || link.target || link.hasAttribute("download")) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin || (url.pathname === window.location.pathname && url.search === window.location.search))
        return;
      event.preventDefault();
      event.stopPropagation();
      setPending(url.pathname + url.search + url.hash);
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, [active]);

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(open) => !open && setPending(null)}
      title="Leave this page?"
      description={`${what} is not recorded yet. If you leave, what you typed is lost.`}
      confirmLabel="Leave and discard"
      cancelLabel="Stay on this page"
      tone="danger"
      onConfirm={() => {
        const target = pending;
        activeRef.current = false;
        setPending(null);
        if (target) router.push(target);
      }}
    />
  );
  return dialog;
}
