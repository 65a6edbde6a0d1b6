"use server";

import { revalidatePath } from "next/cache";
import { guardedAction } from "@/lib/console/bff/action";
import { removeViewSchema, renameViewSchema, saveViewSchema } from "@/lib/contract/saved-view-schema";
import { getDatabase } from "@/lib/platform/db";
import { removeView, renameView, saveView } from "./store";

/**
 * The invoice list's saved views. Anyone who reads invoices keeps views of the list; removing a
 * team view someone else saved takes an admin, which `removeView` checks after the guard (it depends on the view).
 * Both revalidate the layout: the navigation lists the views on every page.
 */
export const saveViewAction = guardedAction("invoices:read", saveViewSchema, async (input, user) => {
  const view = await saveView(await getDatabase(), user!, input);
  revalidatePath("/", "layout");
  return {
    ok: view.shared ? `“${view.name}” is saved for the team.` : `“${view.name}” is saved for you.`,
    answeredAt: Date.now(),
  };
});

export const removeViewAction = guardedAction("invoices:read", removeViewSchema, async ({ id }, user) => {
  const { removed, name } = await removeView(await getDatabase(), user!, id);
  revalidatePath("/", "layout");
  return { ok: removed ? `“${name}” is removed.` : "That view was already removed." };
});

export const renameViewAction = guardedAction("invoices:read", renameViewSchema, async (input, user) => {
  const { renamed, from, name } = await renameView(await getDatabase(), user!, input);
  revalidatePath("/", "layout");
  return {
    ok: renamed ? (from === name ? `“${name}” keeps its name.` : `“${from}” is now “${name}”.`) : "That view was removed meanwhile.",
  };
});
