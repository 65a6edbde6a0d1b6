"use client";

import { Users } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { ChoiceCard } from "@/components/ui/choice-card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { removeViewAction, renameViewAction, saveViewAction } from "@/lib/console/saved-views/actions";
import { SAVED_VIEW_NAME_MAX, type SavedView, savedViewHref } from "@/lib/contract/saved-view";

type Props = {
  /** The list's query string now, without "?" and without `page`. */
  query: string;
  views: SavedView[];
  /** The saved view that is exactly this query, if any. */
  current?: SavedView;
  onClose: () => void;
};

const NAME_ID = "saved-view-name";

/** Loaded on first use by save-view.tsx. */
export function SaveViewDialog({ query, views, current, onClose }: Props) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(saveViewAction, {});
  const errors = state.fieldErrors ?? {};
  const scope = state.values?.scope ?? "mine";
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
    >
      <DialogContent showClose={false} onCloseAutoFocus={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Save this view</DialogTitle>
          <DialogDescription>
            The filters, the search and the sort of the list as it is now. It opens from <strong>Views</strong> in the navigation.
          </DialogDescription>
        </DialogHeader>
        {/* Keyed by each answer: a refused form comes back with what was typed, a saved one empty. */}
        <form key={state.answeredAt} action={action} onSubmit={onSubmit} className="flex flex-col gap-4">
          <DrawnForField />
          <input type="hidden" name="query" value={query} />
          <ActionOutcome state={state} />
          {current && !state.ok && (
            <Notice tone="neutral">
              This view is already saved as <strong>{current.name}</strong>
              {current.mine ? "" : ` by ${current.ownerName}`}.
            </Notice>
          )}
          <Field
            id={NAME_ID}
            label="Name"
            error={errors.name}
            description={errors.name ? undefined : `Up to ${SAVED_VIEW_NAME_MAX} characters.`}
          >
            <Input
              name="name"
              defaultValue={state.values?.name}
              maxLength={SAVED_VIEW_NAME_MAX}
              autoComplete="off"
              placeholder="Unpaid, This month's BTC…"
              required
            />
          </Field>
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1 text-xs font-medium text-muted-foreground">Who sees it</legend>
            <ChoiceCard
              name="scope"
              value="mine"
              defaultChecked={scope === "mine"}
              label="Only me"
              description="In your navigation only."
            />
            <ChoiceCard
              name="scope"
              value="team"
              defaultChecked={scope === "team"}
              label="The team"
              description="In everyone's navigation. You and admins can remove it."
            />
            {errors.scope && <p className="text-xs font-medium text-danger-text">{errors.scope}</p>}
          </fieldset>
          <p className="text-xs break-all text-muted-foreground">
            Opens <span className="font-mono">{savedViewHref(query)}</span>
          </p>
          {/* Once saved, closing is the next step: Close leads, and saving again is there for another name. */}
          <DialogFooter>
            <Button onClick={onClose} disabled={pending} variant={state.ok ? "primary" : undefined} autoFocus={Boolean(state.ok)}>
              {state.ok ? "Done" : "Close"}
            </Button>
            <Button type="submit" variant={state.ok ? undefined : "primary"} loading={pending}>
              {pending ? "Saving…" : state.ok ? "Save another" : "Save view"}
            </Button>
          </DialogFooter>
        </form>
        {views.length > 0 && <SavedViewList views={views} />}
      </DialogContent>
    </Dialog>
  );
}

/** Every view this person sees, with Rename on their own and Remove on the ones they may remove (any team view for an admin). */
function SavedViewList({ views }: { views: SavedView[] }) {
  return (
    <section aria-labelledby="saved-views-heading" className="flex flex-col gap-2 border-t border-border pt-4">
      <h3 id="saved-views-heading" className="text-sm font-medium">
        Saved views
      </h3>
      <ul className="flex flex-col divide-y divide-border text-sm">
        {views.map((view) => (
          <li key={view.id} className="flex items-center gap-2 py-1.5">
            {view.shared && <Users aria-hidden className="size-4 shrink-0 text-muted-foreground" />}
            <Link href={savedViewHref(view.query)} className="min-w-0 flex-1 truncate underline-offset-2 hover:underline" title={view.name}>
              {view.name}
              <span className="sr-only">{view.shared ? ", team view" : ", only you"}</span>
            </Link>
            {!view.mine && <span className="shrink-0 text-xs text-muted-foreground">{view.ownerName}</span>}
            {view.mine && <RenameView view={view} />}
            {view.removable && <RemoveView view={view} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RenameView({ view }: { view: SavedView }) {
  const [name, setName] = useState(view.name);
  const [error, setError] = useState<string>();
  const fieldId = `rename-${view.id}`;
  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" variant="ghost" aria-label={`Rename ${view.name}`}>
          Rename
        </Button>
      }
      title={`Rename “${view.name}”`}
      description={view.shared ? "The team sees the new name in their navigation." : "Only the name changes; the view opens the same list."}
      confirmLabel="Rename"
      pendingLabel="Renaming…"
      confirmDisabled={name.trim() === ""}
      onOpenChange={(open) => {
        setError(undefined);
        if (open) setName(view.name);
      }}
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        const field = document.getElementById(fieldId) as HTMLInputElement | null;
        field?.focus();
        field?.select();
      }}
      onConfirm={async () => {
        const form = new FormData();
        form.set("id", view.id);
        form.set("name", name);
        const answer = await renameViewAction(form);
        if ("error" in answer) {
          setError(answer.fieldErrors.name ?? answer.error);
          return false;
        }
      }}
    >
      <Field id={fieldId} label="Name" error={error} description={error ? undefined : `Up to ${SAVED_VIEW_NAME_MAX} characters.`}>
        <Input
          value={name}
          maxLength={SAVED_VIEW_NAME_MAX}
          autoComplete="off"
          required
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
        />
      </Field>
    </ConfirmDialog>
  );
}

function RemoveView({ view }: { view: SavedView }) {
  const [error, setError] = useState<string>();
  return (
    <ConfirmDialog
      tone="danger"
      trigger={
        <Button size="sm" variant="ghost" aria-label={`Remove ${view.name}`}>
          Remove
        </Button>
      }
      title={`Remove “${view.name}”?`}
      description={
        view.shared
          ? view.mine
            ? "It leaves the navigation of everyone in the team."
            : `${view.ownerName} saved it for the team; it leaves everyone's navigation.`
          : "It leaves your navigation. The invoices are not changed."
      }
      confirmLabel="Remove view"
      pendingLabel="Removing…"
      onOpenChange={() => setError(undefined)}
      // Its Remove button leaves with the view: focus goes back to the form's first field.
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        document.getElementById(NAME_ID)?.focus();
      }}
      onConfirm={async () => {
        const form = new FormData();
        form.set("id", view.id);
        const answer = await removeViewAction(form);
        if ("error" in answer && answer.error) {
          setError(answer.error);
          return false;
        }
      }}
    >
      {error && (
        <Notice role="alert" tone="danger">
          {error}
        </Notice>
      )}
    </ConfirmDialog>
  );
}
