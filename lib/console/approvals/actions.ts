"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { forbidden } from "@/lib/console/auth/errors";
import { guardedAction } from "@/lib/console/bff/action";
import { runInBackground } from "@/lib/console/invoices/bulk-runner";
import { upstream } from "@/lib/console/upstream/client";
import { reasonSchema } from "@/lib/contract/approvals";
import { toProblem } from "@/lib/contract/problem";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { approveRequest, rejectRequest, withdrawRequest } from "./decide";
import { policyFromForm } from "./policy-form";
import { saveTransitionPolicy } from "./policy-store";

const decisionSchema = z.object({
  id: z.string().min(1),
  decision: z.enum(["approve", "reject", "withdraw"], { error: "Choose approve, reject or withdraw" }),
  reason: reasonSchema,
});

/**
 * The Approvals page's one form (components/approvals): the button pressed is the decision, so it is a plain form
 * without script too. The same use cases as POST /api/approvals/{id}/approve, /reject and /withdraw: deciding needs
 * invoices:approve, withdrawing one's own request only the right to ask.
 */
export const decideApprovalAction = guardedAction("invoices:change_status", decisionSchema, async ({ id, decision, reason }, user) => {
  const db = await getDatabase();
  if (decision !== "withdraw" && !can(user!.role, "invoices:approve")) throw forbidden("invoices:approve", user!);
  try {
    if (decision === "approve") await approveRequest({ db, upstream: upstream(), user: user!, id, reason, start: runInBackground });
    else if (decision === "reject") await rejectRequest({ db, user: user!, id, reason });
    else await withdrawRequest({ db, user: user!, id, reason });
  } catch (error) {
    // Closed meanwhile (the invoice changed, its requester may no longer ask, someone else decided): the page says how it ended.
    const problem = toProblem(error);
    if (!problem.is("invoice_changed") && !problem.is("requester_changed") && !problem.is("approval_closed")) throw problem;
  }
  revalidatePath("/approvals");
  // The request leaves the waiting list: the page names what became of it (from its row, nothing from the URL).
  redirect(`/approvals?done=${encodeURIComponent(id)}`);
});

/** The settings page's policy form: admins only, every change audited (lib/console/approvals/policy-store.ts). */
export const savePolicyAction = guardedAction("policy:manage", z.record(z.string(), z.string()), async (fields, user) => {
  await saveTransitionPolicy(await getDatabase(), policyFromForm(fields), user!);
  revalidatePath("/settings");
  return { ok: "The policy is saved: it applies to every change asked for from now on.", answeredAt: Date.now() };
});
