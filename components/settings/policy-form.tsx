"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { ActionOutcome } from "@/components/ui/action-outcome";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Select } from "@/components/ui/select";
import { useFormAction } from "@/lib/browser/action";
import { cn } from "@/lib/browser/cn";
import { DrawnForField } from "@/lib/browser/page-person";
import { savePolicyAction } from "@/lib/console/approvals/actions";
import type { ActionState } from "@/lib/console/bff/action";
import { ROLE_LABELS } from "@/lib/contract/roles";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";
import {
  APPROVAL_LABELS,
  APPROVAL_RULES,
  DEFAULT_TRANSITION_POLICY,
  POLICY_ROLES,
  type TransitionPolicy,
} from "@/lib/contract/transition-policy";

type Fields = Record<string, string>;

/**
 * A policy as the form posts it (lib/console/approvals/policy-form.ts reads it back): a ticked checkbox sends "on",
 * an unticked one nothing, so a name is present exactly when its box is ticked.
 */
function policyFields(policy: TransitionPolicy): Fields {
  const fields: Fields = {};
  for (const to of INVOICE_STATUSES) {
    const rule = policy.targets[to];
    for (const role of rule.roles) fields[`${to}.roles.${role}`] = "on";
    for (const from of rule.from) fields[`${to}.from.${from}`] = "on";
    fields[`${to}.approval`] = rule.approval;
  }
  for (const from of policy.guarded_from) fields[`guarded_from.${from}`] = "on";
  fields.bulk_approval_over = String(policy.bulk_approval_over);
  return fields;
}

const DEFAULT_FIELDS = policyFields(DEFAULT_TRANSITION_POLICY);

/** Whether any field under `prefix` is drawn otherwise than the defaults would draw it. */
function differs(fields: Fields, prefix: string): boolean {
  const names = new Set([...Object.keys(fields), ...Object.keys(DEFAULT_FIELDS)].filter((name) => name.startsWith(prefix)));
  return [...names].some((name) => fields[name] !== DEFAULT_FIELDS[name]);
}

const inWords = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "nobody"));
const statusWords = (statuses: readonly InvoiceStatus[]) => inWords(statuses.map((s) => STATUS_LABELS[s]));

/** "Default: asked by support and admin; from New and Pending.": only the parts of a row that were changed. */
function defaultHint(fields: Fields, to: InvoiceStatus): string | null {
  const rule = DEFAULT_TRANSITION_POLICY.targets[to];
  const parts = [
    differs(fields, `${to}.roles.`) && `asked by ${inWords(rule.roles.map((r) => ROLE_LABELS[r].toLowerCase()))}`,
    differs(fields, `${to}.from.`) && `from ${statusWords(rule.from)}`,
    differs(fields, `${to}.approval`) && `approval ${APPROVAL_LABELS[rule.approval].toLowerCase()}`,
  ].filter(Boolean);
  return parts.length ? `Default: ${parts.join("; ")}.` : null;
}

const approvalOptions = APPROVAL_RULES.map((rule) => ({ value: rule, label: APPROVAL_LABELS[rule] }));

// One grid for the column heads and every row: a table's look from 1024 px, each status stacked as a block below.
const COLUMNS = "gap-3 lg:grid-cols-[8rem_16rem_minmax(0,1fr)_15rem] lg:items-start lg:gap-x-6";

/**
 * The transition policy as one plain form: it posts without script too. `policy` is the one in force; with
 * `showDefaults` the form is drawn with the defaults instead, saved only when the admin saves them.
 */
export function PolicyForm({ policy, showDefaults }: { policy: TransitionPolicy; showDefaults: boolean }) {
  const { state, action, onSubmit, pending, sent } = useFormAction<ActionState>(savePolicyAction, {});
  // Once saved, the policy in force is what was saved; after a refusal the form shows what was sent.
  const showingDefaults = showDefaults && !state.ok && sent === 0;
  const drawn = showingDefaults ? DEFAULT_TRANSITION_POLICY : policy;
  const fields = state.error && state.values ? state.values : policyFields(drawn);
  const errors = state.fieldErrors ?? {};
  const inForceIsDefault = !differs(policyFields(policy), "");
  const drawnIsDefault = !differs(fields, "");
  // Keyed by the answer and the values drawn: a saved or refreshed policy redraws the boxes it ticks.
  const key = `${state.answeredAt ?? 0}|${Object.entries(fields).sort().join("&")}`;

  return (
    <form key={key} action={action} onSubmit={onSubmit} className="flex flex-col">
      <DrawnForField />
      {showingDefaults && !inForceIsDefault && (
        <Notice role="note" className="mb-2">
          The form shows the defaults: nothing changes until you save them.{" "}
          <Link href="/settings" className="font-medium underline underline-offset-2">
            Show the policy in force
          </Link>
        </Notice>
      )}
      <div aria-hidden className={cn(COLUMNS, "hidden border-b border-border py-2 text-xs font-medium text-muted-foreground lg:grid")}>
        <span>Status</span>
        <span>Who may ask</span>
        <span>From</span>
        <span>Approval</span>
      </div>
      <div className="divide-y divide-border border-b border-border">
        {INVOICE_STATUSES.map((to) => (
          <TargetRow key={to} to={to} fields={fields} error={errors[`targets.${to}.approval`] ?? errors[`${to}.approval`]} />
        ))}
      </div>

      <fieldset className="min-w-0 border-b border-border py-4">
        <legend className="float-left flex w-full flex-wrap items-center gap-2 text-sm font-medium">
          Changes from these statuses always need approval
          {differs(fields, "guarded_from.") && <ChangedBadge />}
        </legend>
        <p className="clear-left pt-1 text-xs text-muted-foreground">
          Whoever asks, and even from a status a row above leaves out.
          {differs(fields, "guarded_from.") && ` Default: ${statusWords(DEFAULT_TRANSITION_POLICY.guarded_from)}.`}
        </p>
        <div className="mt-2 flex flex-wrap gap-x-3 gap-y-1">
          {INVOICE_STATUSES.map((from) => (
            <Tick
              key={from}
              name={`guarded_from.${from}`}
              fields={fields}
              label={STATUS_LABELS[from]}
              fullName={`Changes from ${STATUS_LABELS[from]} always need approval`}
            />
          ))}
        </div>
      </fieldset>

      <Field
        label={
          <span className="inline-flex flex-wrap items-center gap-2 text-sm text-foreground">
            Bulk cancels need approval above
            {differs(fields, "bulk_approval_over") && <ChangedBadge />}
          </span>
        }
        description={`A bulk cancel of more invoices than this waits for one approval for the whole job. Default: ${DEFAULT_TRANSITION_POLICY.bulk_approval_over}.`}
        error={errors.bulk_approval_over}
        className="py-4"
      >
        <Input
          name="bulk_approval_over"
          type="number"
          inputMode="numeric"
          min={0}
          max={1000}
          step={1}
          required
          defaultValue={fields.bulk_approval_over ?? ""}
          className="max-w-28"
        />
      </Field>

      <div className="flex flex-col gap-3 border-t border-border pt-4">
        <ActionOutcome state={state} />
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" variant="primary" loading={pending}>
            {pending ? "Saving…" : "Save policy"}
          </Button>
          {!drawnIsDefault && (
            // A link, not a second submit: it draws the defaults into the form, with or without script, and saves nothing.
            <Button asChild>
              <Link href="/settings?defaults=1" prefetch={false}>
                Reset to defaults
              </Link>
            </Button>
          )}
        </div>
      </div>
    </form>
  );
}

function TargetRow({ to, fields, error }: { to: InvoiceStatus; fields: Fields; error?: string }) {
  const name = STATUS_LABELS[to];
  const hint = defaultHint(fields, to);
  const guardedAlso = INVOICE_STATUSES.filter(
    (from) => from !== to && fields[`guarded_from.${from}`] !== undefined && fields[`${to}.from.${from}`] === undefined,
  );
  return (
    <div className={cn(COLUMNS, "grid py-4")}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">{name}</span>
        {hint && <ChangedBadge />}
      </div>
      <TickGroup legend="Who may ask" status={name}>
        {POLICY_ROLES.map((role) => (
          <Tick
            key={role}
            name={`${to}.roles.${role}`}
            fields={fields}
            label={ROLE_LABELS[role]}
            fullName={`${name}: ${ROLE_LABELS[role].toLowerCase()} may ask`}
          />
        ))}
      </TickGroup>
      <TickGroup legend="From" status={name}>
        {INVOICE_STATUSES.map((from) =>
          // No box for a change to itself, which nobody is offered; kept as it is stored, so saving changes nothing.
          from === to ? (
            fields[`${to}.from.${from}`] !== undefined && <input key={from} type="hidden" name={`${to}.from.${from}`} value="on" />
          ) : (
            <Tick
              key={from}
              name={`${to}.from.${from}`}
              fields={fields}
              label={STATUS_LABELS[from]}
              fullName={`${name}: from ${STATUS_LABELS[from]}`}
            />
          ),
        )}
        {/* The statuses below whose changes always need approval are allowed from here too: said, so an unticked box does not read as "never". */}
        {guardedAlso.length > 0 && (
          <p className="w-full text-xs text-muted-foreground">Also from {statusWords(guardedAlso)}, with approval (below).</p>
        )}
      </TickGroup>
      <Field
        label={
          <>
            <span className="sr-only">{name}: </span>
            <span className="lg:sr-only">Approval</span>
          </>
        }
        error={error}
      >
        <Select name={`${to}.approval`} defaultValue={fields[`${to}.approval`]} options={approvalOptions} className="w-full" />
      </Field>
      {hint && <p className="text-xs text-muted-foreground lg:col-span-3 lg:col-start-2">{hint}</p>}
    </div>
  );
}

/** A row's group of boxes; its legend is the column head's words (shown above the boxes below 1024 px). */
function TickGroup({ legend, status, children }: { legend: string; status: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0">
      <legend className="float-left mb-1.5 w-full text-xs font-medium text-muted-foreground lg:sr-only">
        <span className="sr-only">{status}: </span>
        {legend}
      </legend>
      <div className="clear-left flex flex-wrap gap-x-3 gap-y-1">{children}</div>
    </fieldset>
  );
}

/** A box with its word beside it; `fullName` names it on its own ("Completed: finance may ask"). */
function Tick({ name, fields, label, fullName }: { name: string; fields: Fields; label: string; fullName: string }) {
  return (
    <label htmlFor={`policy-${name}`} className="inline-flex cursor-pointer items-center gap-1.5 py-1 text-sm whitespace-nowrap">
      <Checkbox id={`policy-${name}`} name={name} defaultChecked={fields[name] !== undefined} aria-label={fullName} />
      {label}
    </label>
  );
}

function ChangedBadge() {
  return (
    <Badge tone="info" title="Differs from the default">
      Changed
    </Badge>
  );
}
