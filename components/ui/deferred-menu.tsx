"use client";

import { cloneElement, type ReactElement, type ReactNode, type Ref, useEffect, useRef, useState } from "react";

export type TriggerProps = { ref?: Ref<HTMLButtonElement>; onClick?: () => void; "aria-haspopup"?: "menu"; "aria-expanded"?: boolean };
export type DeferredMenuProps = {
  /** The trigger, to render inside the menu's own trigger (`asChild`). */
  trigger: ReactElement<TriggerProps>;
  /** Open or not: true at once when the person asked for the menu before its code arrived. */
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * A menu whose trigger comes with the page and whose menu code (Radix: popper, focus management, dismissal)
 * loads right after hydration, so no page's first load carries it. Until then the trigger is a plain button
 * that looks the same; a click on it opens the menu as soon as the code is there, and focus stays where it was.
 * `load` must be a module-level function, so it is called once.
 */
export function DeferredMenu<M>({
  load,
  trigger,
  render,
}: {
  load: () => Promise<M>;
  trigger: ReactElement<TriggerProps>;
  render: (module: M, props: DeferredMenuProps) => ReactNode;
}) {
  const [menu, setMenu] = useState<{ module: M } | null>(null);
  const [open, setOpen] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const placeholder = useRef<HTMLButtonElement>(null);
  const real = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: a click after a failed load bumps it to load again
  useEffect(() => {
    let live = true;
    load().then(
      (module) => {
        if (!live) return;
        refocus.current = placeholder.current !== null && document.activeElement === placeholder.current;
        setMenu({ module });
      },
      // Offline or a new deployment: the placeholder stays, and a click tries again.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [load, attempt]);

  useEffect(() => {
    if (menu && refocus.current && !open) real.current?.focus();
    refocus.current = false;
  }, [menu, open]);

  if (!menu) {
    return cloneElement(trigger, {
      ref: placeholder,
      "aria-haspopup": "menu",
      "aria-expanded": false,
      onClick: () => {
        setOpen(true);
        setAttempt((n) => n + 1);
      },
    });
  }
  return render(menu.module, { trigger: cloneElement(trigger, { ref: real }), open, onOpenChange: setOpen });
}
