"use client";

import dynamic from "next/dynamic";

// The dialogs (Radix) as they load after the page: each opens only on a person's action, so a page that offers
// one keeps its first load to its content. Same names and props as confirm-dialog.tsx and dialog.tsx.
export const ConfirmDialog = dynamic(() => import("./confirm-dialog").then((m) => m.ConfirmDialog), { ssr: false });
const dialog = () => import("./dialog");
export const Dialog = dynamic(() => dialog().then((m) => m.Dialog), { ssr: false });
export const DialogClose = dynamic(() => dialog().then((m) => m.DialogClose), { ssr: false });
export const DialogContent = dynamic(() => dialog().then((m) => m.DialogContent), { ssr: false });
export const DialogDescription = dynamic(() => dialog().then((m) => m.DialogDescription), { ssr: false });
export const DialogFooter = dynamic(() => dialog().then((m) => m.DialogFooter), { ssr: false });
export const DialogHeader = dynamic(() => dialog().then((m) => m.DialogHeader), { ssr: false });
export const DialogTitle = dynamic(() => dialog().then((m) => m.DialogTitle), { ssr: false });
