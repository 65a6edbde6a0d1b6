"use client";

import { Send } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ProblemState } from "@/components/ui/problem-state";
import { Select } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { actionProblem, useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { toast } from "@/lib/browser/toast";
import { simulateWebhookAction } from "@/lib/console/webhooks/actions";
import type { InboxFilter, InboxList, WebhookSimulationResult } from "@/lib/contract";
import { problemDetail } from "@/lib/contract/problem";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";
import { InboxFilterForm } from "./inbox-filter-form";
import { InboxList as InboxEntries } from "./inbox-list";
import { announcedByDefault, type SimulationState } from "./send-test-webhook";
import { useInbox } from "./use-inbox";

export type RecentInvoice = { invoice_id: string; label: string; hasCallback: boolean; status: string | null };

type Props = {
  recent: RecentInvoice[];
  /** Why recent invoices could not be listed, if they could not. */
  recentProblem: { title: string; detail?: string } | null;
  initialInbox: InboxList;
  /** Which entries the inbox shows (the page's address: inbox_verdict, inbox_invoice). */
  inboxFilter: InboxFilter;
  /** The invoicing API's base URL as a developer would call it (for "copy as curl"). */
  apiBaseUrl: string;
  initialInvoiceId: string | null;
  /** Where the inbox is, as a sender must be told. */
  inboxUrl: string;
  /** Whether the inbox can check signatures (WEBHOOK_SECRET, or the embedded sandbox's demo secret). */
  verifying: boolean;
};

/**
 * Pick an invoice and a status, send its webhook (a form with the server action simulateWebhookAction), and
 * watch it arrive in the inbox beside the form.
 */
export function WebhookConsole({
  recent,
  recentProblem,
  initialInbox,
  inboxFilter,
  apiBaseUrl,
  initialInvoiceId,
  inboxUrl,
  verifying,
}: Props) {
  const [invoiceId, setInvoiceId] = useState(initialInvoiceId ?? recent.find((r) => r.hasCallback)?.invoice_id ?? "");
  const [status, setStatus] = useState<InvoiceStatus>(() => announcedByDefault(recent.find((r) => r.invoice_id === invoiceId)?.status));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const inbox = useInbox(inboxFilter, initialInbox);

  const { state, action, onSubmit, pending } = useFormAction<SimulationState>(
    simulateWebhookAction,
    {},
    {
      ok: ({ result }) => {
        if (result) toast.success(`Webhook sent: ${result.status}`);
      },
      failed: (problem) => {
        const pointer = problem.errors?.[0];
        setFieldError(pointer?.pointer === "/invoice_id" ? pointer.detail : null);
      },
    },
  );

  /** With script, an empty id is named before anything is sent; without, the action's answer names it. */
  function check(event: FormEvent) {
    if (!invoiceId.trim()) {
      event.preventDefault();
      setFieldError("Enter an invoice id, or pick a recent invoice.");
    } else setFieldError(null);
  }

  const curl = [
    `curl -X POST '${apiBaseUrl}/webhooks/simulate' \\`,
    `  -H "Api-key: $INVOICING_API_KEY" \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '${JSON.stringify({ invoice_id: invoiceId.trim() || "<invoice id>", status }).replaceAll("'", "'\\''")}'`,
  ].join("\n");

  return (
    // Phones: form, inbox, then the developer notes. Wide screens: the inbox beside both.
    <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:grid-rows-[auto_1fr] lg:items-start">
      <Card className="min-w-0 lg:col-start-1 lg:row-start-1">
        <CardHeader>
          <CardTitle>Send a test webhook</CardTitle>
          <CardDescription>
            The provider sends the invoice&apos;s status-change webhook to its callback URL. The invoice itself does not change.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            action={action}
            onSubmit={(event) => {
              check(event);
              onSubmit(event);
            }}
            className="flex flex-col gap-4"
            aria-label="Send a test webhook"
          >
            <DrawnForField />
            {recent.length > 0 && (
              <Field
                label="Recent invoices"
                description="Picking one fills in its id. Invoices without a callback URL cannot be sent a webhook."
              >
                <Select
                  value={recent.some((r) => r.invoice_id === invoiceId) ? invoiceId : ""}
                  onChange={(event) => {
                    setInvoiceId(event.target.value);
                    setStatus(announcedByDefault(recent.find((r) => r.invoice_id === event.target.value)?.status));
                    setFieldError(null);
                  }}
                  className="w-full"
                >
                  <option value="">Choose a recent invoice…</option>
                  {recent.map((r) => (
                    <option key={r.invoice_id} value={r.invoice_id} disabled={!r.hasCallback}>
                      {r.label}
                      {r.hasCallback ? "" : " (no callback URL)"}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            {recentProblem && (
              <p className="text-xs text-muted-foreground">Recent invoices could not be listed: {problemDetail(recentProblem)}</p>
            )}
            <Field label="Invoice id" error={fieldError}>
              <Input
                name="invoice_id"
                value={invoiceId}
                onChange={(event) => {
                  setInvoiceId(event.target.value);
                  setFieldError(null);
                }}
                placeholder="Paste an invoice id"
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
              />
            </Field>
            <Field label="Status the webhook announces">
              <Select
                name="status"
                value={status}
                onChange={(event) => setStatus(event.target.value as InvoiceStatus)}
                options={INVOICE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
                className="w-full"
              />
            </Field>
            <div>
              <Button type="submit" variant="primary" loading={pending}>
                <Send aria-hidden /> Send webhook
              </Button>
            </div>
          </form>
          <SimulationAnswer pending={pending} result={state.result} error={actionProblem(state)} />
        </CardContent>
      </Card>

      <Card className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <CardHeader>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <CardTitle>Inbox</CardTitle>
            <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="off">
              <span aria-hidden className={`size-2 rounded-full ${inbox.isError ? "bg-danger-solid" : "bg-success-solid"}`} />
              {inbox.isError ? "Not updating" : "Live"}
            </span>
          </div>
          <CardDescription>
            Webhooks posted to <span className="font-mono break-all">{inboxUrl}</span> appear here within a second, on every console
            instance.{" "}
            {verifying
              ? "Signatures are checked with the configured secret."
              : "No WEBHOOK_SECRET is set, so signatures are shown as not verified."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <InboxFilterForm filter={inboxFilter} />
          {inbox.isError && <ProblemState problem={inbox.error} className="py-4" />}
          <div aria-live="polite" aria-relevant="additions">
            <InboxEntries
              entries={inbox.data?.entries ?? []}
              emptyHint={
                inboxFilter.verdicts.length || inboxFilter.invoiceId
                  ? "Nothing received matches this filter yet."
                  : "Send a test webhook, or change an invoice's status: its webhook shows here seconds later."
              }
            />
          </div>
        </CardContent>
      </Card>

      <Card className="min-w-0 lg:col-start-1 lg:row-start-2">
        <CardHeader>
          <CardTitle>For developers</CardTitle>
        </CardHeader>
        <CardContent className="pt-3">
          <Tabs defaultValue="curl">
            <TabsList>
              <TabsTrigger value="curl">Copy as curl</TabsTrigger>
              <TabsTrigger value="verify">Verify a signature</TabsTrigger>
            </TabsList>
            <TabsContent value="curl">
              <CodeBlock code={curl} label="Copy the curl command" name="The curl command" />
              <p className="mt-2 text-xs text-muted-foreground">The same request, sent with your own key (never shown here).</p>
            </TabsContent>
            <TabsContent value="verify">
              <CodeBlock code={VERIFY_SNIPPET} label="Copy the verification snippet" name="The verification snippet" />
              <p className="mt-2 text-xs text-muted-foreground">
                Standard Webhooks: verify the raw body before parsing it, refuse anything older than 5 minutes, and process each{" "}
                <code className="font-mono">webhook-id</code> once — retries repeat it.
              </p>
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </div>
  );
}

function SimulationAnswer({
  pending,
  result,
  error,
}: {
  pending: boolean;
  result: WebhookSimulationResult | undefined;
  error: Error | null;
}) {
  if (pending)
    return (
      <p className="mt-4 text-sm text-muted-foreground" role="status">
        Sending… the provider answers once it has tried the callback URL.
      </p>
    );
  if (error) return <ProblemState problem={error} className="mt-2 py-4" />;
  if (!result) return null;
  return (
    <div role="status" data-testid="simulation-answer" className="mt-4 rounded-md border border-border bg-muted/50 p-3 text-sm">
      <p className="flex items-center gap-2 font-medium">
        The provider answered{" "}
        <Badge tone={result.status === "delivered" ? "success" : result.status === "failed" ? "danger" : "info"}>{result.status}</Badge>
      </p>
      <p className="mt-1 break-words text-foreground/90">{result.message}</p>
    </div>
  );
}

/** Code that keeps its lines: it scrolls sideways, so it is a named Tab stop (axe: scrollable-region-focusable). */
function CodeBlock({ code, label, name }: { code: string; label: string; name: string }) {
  return (
    <div className="overflow-hidden rounded-md bg-muted">
      <div className="flex justify-end border-b border-border px-2 py-1">
        <CopyButton value={code} label={label} />
      </div>
      <pre
        className="overflow-x-auto rounded-b-md p-3 font-mono text-xs leading-relaxed focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        role="region"
        aria-label={`${name}, scrollable`}
      >
        {code}
      </pre>
    </div>
  );
}

const VERIFY_SNIPPET = `import { Webhook } from "standardwebhooks"; // npm i standardwebhooks

const webhook = new Webhook(process.env.WEBHOOK_SECRET); // whsec_…

// Express: read the body raw — a re-serialised body no longer matches.
app.post("/webhooks", express.raw({ type: "application/json" }), (req, res) => {
  let event;
  try {
    // Throws when the signature does not match or is older than 5 minutes.
    event = webhook.verify(req.body, req.headers);
  } catch {
    return res.status(401).end();
  }
  // Process once per req.headers["webhook-id"]: retries send the same id.
  handle(event.data.invoice, event.data.previous_status);
  res.status(204).end();
});`;
