"use client";

import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";

// Radix traps focus, closes on Escape and outside click, returns focus to the opener and labels the dialog
// by its title; these wrappers only add the look.

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClasses = "fixed inset-0 z-50 bg-overlay";
const frameClasses =
  "fixed left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 flex-col rounded-xl border border-border bg-popover text-popover-foreground shadow-xl";
export const dialogContentClasses = `${frameClasses} top-1/2 max-w-lg -translate-y-1/2 gap-4 overflow-y-auto p-6`;
/** A palette: wider, near the top (it grows downward as results come), its parts edge to edge. */
const paletteClasses = `${frameClasses} top-[12vh] max-w-2xl gap-0 overflow-hidden p-0 sm:top-[15vh]`;

export function DialogContent({
  className,
  children,
  showClose = true,
  look = "dialog",
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { showClose?: boolean; look?: "dialog" | "palette" }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClasses} />
      <DialogPrimitive.Content className={cn(look === "palette" ? paletteClasses : dialogContentClasses, className)} {...props}>
        {children}
        {showClose && (
          <DialogPrimitive.Close className="absolute top-4 right-4 grid size-7 place-items-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground">
            <X aria-hidden className="size-4" />
            <span className="sr-only">Close</span>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-1.5 pr-8", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn("text-lg font-semibold", className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn("text-sm text-muted-foreground", className)} {...props} />;
}
