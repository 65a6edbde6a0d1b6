import "server-only";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { invoiceAuditTarget } from "@/lib/console/invoices/change-status";
import type { Upstream } from "@/lib/console/upstream/client";
import type { WebhookSimulation, WebhookSimulationResult } from "@/lib/contract";
import { toProblem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";

export const WEBHOOK_SIMULATION_ACTION = "webhook.simulate";

/**
 * An admin asks the provider to send an invoice's status webhook as a test (spec §4.4). The invoice does not
 * change; the attempt is audited either way — what was asked, and what the provider answered.
 */
export async function simulateWebhookFromConsole(input: {
  db: Db;
  upstream: Upstream;
  user: SessionUser;
  request: WebhookSimulation;
}): Promise<WebhookSimulationResult> {
  const { db, upstream, user, request } = input;
  const audit = (detail: Record<string, unknown>) =>
    recordAudit(db, {
      actor: user,
      action: WEBHOOK_SIMULATION_ACTION,
      target: invoiceAuditTarget(request.invoice_id),
      detail: { status: request.status, ...detail },
    });
  try {
    const result = await upstream.simulateWebhook(request);
    await audit({ outcome: "sent", upstream_status: 200, answer: result });
    return result;
  } catch (error) {
    const problem = toProblem(error);
    await audit({
      outcome: "failed",
      upstream_status: problem.upstreamStatus ?? null,
      answer: { title: problem.title, detail: problem.detail ?? null },
    });
    throw problem;
  }
}
