"use client";

import dynamic from "next/dynamic";
import { Slot } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import type { ConfirmDialogProps } from "./confirm-dialog";

// The dialogs (Radix) as they load after the page: each opens only on a person's action, so a page that offers
// one keeps its first load to its content. Same names and props as confirm-dialog.tsx and dialog.tsx.
const LoadedConfirmDialog = dynamic(() => import("./confirm-dialog").then((m) => m.ConfirmDialog), { ssr: false });

/**
 * The confirmation, its trigger drawn with the page (a row's "Disable" is there in the HTML, and the row does not
 * grow when scripts arrive); the dialog itself loads when first opened, and focus comes back to the trigger.
 */
export function ConfirmDialog({ trigger, open, onOpenChange, onCloseAutoFocus, ...props }: ConfirmDialogProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  // Drawn by the server, it answers only once hydrated: until then it says so instead of losing the click.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const triggerRef = useRef<HTMLElement>(null);
  if (!trigger) return <LoadedConfirmDialog open={open} onOpenChange={onOpenChange} onCloseAutoFocus={onCloseAutoFocus} {...props} />;
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (next) setWanted(true);
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  return (
    <>
      <Slot.Root ref={triggerRef} onClick={() => setOpen(true)} aria-haspopup="dialog" aria-expanded={isOpen} {...{ disabled: !hydrated }}>
        {trigger}
      </Slot.Root>
      {(wanted || isOpen) && (
        <LoadedConfirmDialog
          {...props}
          open={isOpen}
          onOpenChange={setOpen}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus?.(event);
            if (event.defaultPrevented) return;
            event.preventDefault();
            triggerRef.current?.focus();
          }}
        />
      )}
    </>
  );
}

const dialog = () => import("./dialog");
export const Dialog = dynamic(() => dialog().then((m) => m.Dialog), { ssr: false });
export const DialogClose = dynamic(() => dialog().then((m) => m.DialogClose), { ssr: false });
export const DialogContent = dynamic(() => dialog().then((m) => m.DialogContent), { ssr: false });
export const DialogDescription = dynamic(() => dialog().then((m) => m.DialogDescription), { ssr: false });
export const DialogFooter = dynamic(() => dialog().then((m) => m.DialogFooter), { ssr: false });
export const DialogHeader = dynamic(() => dialog().then((m) => m.DialogHeader), { ssr: false });
export const DialogTitle = dynamic(() => dialog().then((m) => m.DialogTitle), { ssr: false });
