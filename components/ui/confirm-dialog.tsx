"use client";

import { type FormEvent, type ReactNode, useState } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "./alert-dialog";
import { Button } from "./button";

export type ConfirmDialogProps = {
  /** The control that opens it (asChild): usually a <Button>. Omit when `open` is controlled. */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** A question naming the thing: "Cancel invoice for order ORD-2026-000123?" */
  title: ReactNode;
  /** What will happen, and what will not. */
  description?: ReactNode;
  /** Extra inputs (a reason) and warnings; they sit inside the dialog's form, so Enter confirms. */
  children?: ReactNode;
  /** Says what happens: "Cancel invoice", "Disable ana@example.com" — never just "OK". */
  confirmLabel: ReactNode;
  /** Shown while `onConfirm` runs: "Cancelling…". */
  pendingLabel?: ReactNode;
  cancelLabel?: ReactNode;
  tone?: "primary" | "danger";
  /**
   * Runs on confirm. The dialog stays open, shows progress and cannot be dismissed until it settles; it
   * closes when this resolves to anything but `false`, and stays (showing the caller's error) on `false`.
   */
  onConfirm: () => unknown | Promise<unknown>;
  confirmDisabled?: boolean;
  /** Where focus starts (default: Cancel). Prevent the event and focus a field, e.g. a required reason. */
  onOpenAutoFocus?: (event: Event) => void;
  /** Where focus goes on close (default: the trigger); needed when the action removes the trigger. */
  onCloseAutoFocus?: (event: Event) => void;
};

/** The one way to ask before a destructive or important action; replaces window.confirm and ad-hoc <dialog>s. */
export function ConfirmDialog({
  trigger,
  open: controlledOpen,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  pendingLabel,
  cancelLabel = "Cancel",
  tone = "primary",
  onConfirm,
  confirmDisabled,
  onOpenAutoFocus,
  onCloseAutoFocus,
}: ConfirmDialogProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const open = controlledOpen ?? ownOpen;

  function setOpen(next: boolean) {
    // While the action runs its outcome must be seen: Escape and Cancel wait.
    if (pending && !next) return;
    setOwnOpen(next);
    onOpenChange?.(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      const result = await onConfirm();
      if (result !== false) {
        setOwnOpen(false);
        onOpenChange?.(false);
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent onOpenAutoFocus={onOpenAutoFocus} onCloseAutoFocus={onCloseAutoFocus}>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>{title}</AlertDialogTitle>
            {description && <AlertDialogDescription>{description}</AlertDialogDescription>}
          </AlertDialogHeader>
          {children}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>{cancelLabel}</AlertDialogCancel>
            <Button type="submit" variant={tone} loading={pending} disabled={confirmDisabled}>
              {pending && pendingLabel ? pendingLabel : confirmLabel}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
