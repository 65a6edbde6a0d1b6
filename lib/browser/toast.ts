"use client";

import type { ExternalToast } from "sonner";

// sonner loads with the first toast shown, not with every page that may show one (its Toaster is lazy too,
// app/providers.tsx): a page's first load stays its content.
const sonner = () => import("sonner").then((m) => m.toast);

/** `toast.success(…)` and `toast.error(…)` as sonner's, sent once sonner has loaded. */
export const toast = {
  success: (message: string, options?: ExternalToast) => void sonner().then((t) => t.success(message, options)),
  error: (message: string, options?: ExternalToast) => void sonner().then((t) => t.error(message, options)),
};
