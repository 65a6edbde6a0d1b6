"use client";

import { FileSearch, Inbox } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ProblemState } from "@/components/ui/problem-state";
import { Problem } from "@/lib/contract/problem";

export type InvoiceTableMessageProps =
  | { kind: "error"; error: Error; onRetry: () => void }
  | { kind: "past-end"; onLastPage: () => void }
  | { kind: "no-match"; onClearFilters: () => void }
  | { kind: "filling" }
  | { kind: "no-invoices" };

/**
 * What the invoice table shows in place of rows: the error, or why the page is empty and what to do. Loaded
 * only when a view needs one (invoice-table.tsx), so the usual first load, a page of rows, does without it.
 */
export function InvoiceTableMessage(props: InvoiceTableMessageProps) {
  switch (props.kind) {
    case "error":
      return (
        <ProblemState
          problem={
            props.error instanceof Problem ? props.error : { title: "The invoices could not be loaded", detail: props.error.message }
          }
          action={<Button onClick={props.onRetry}>Try again</Button>}
        />
      );
    case "past-end":
      return (
        <EmptyState
          icon={<FileSearch />}
          title="This page is past the end of the list"
          action={<Button onClick={props.onLastPage}>Go to the last page</Button>}
        />
      );
    case "no-match":
      return (
        <EmptyState
          icon={<FileSearch />}
          title="No invoices match these filters"
          description="Try another status, currency or date range."
          action={<Button onClick={props.onClearFilters}>Clear filters</Button>}
        />
      );
    case "filling":
      return (
        <EmptyState
          icon={<FileSearch />}
          title="Still reading your invoices"
          description="This view is answered from the console's own copy of your invoices, which is being filled for the first time. It fills in by itself within a minute or two."
        />
      );
    case "no-invoices":
      return (
        <EmptyState icon={<Inbox />} title="No invoices yet" description="Invoices appear here as soon as the invoicing API issues them." />
      );
  }
}
