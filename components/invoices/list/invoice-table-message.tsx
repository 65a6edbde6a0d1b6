import { FileSearch, Inbox, LoaderCircle } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ProblemState } from "@/components/ui/problem-state";
import { type FillProgress, fillProgressSentence } from "@/lib/contract/fill-progress";
import type { Problem } from "@/lib/contract/problem";
import { BusyRetry } from "./auto-submit-form";

export type InvoiceTableMessageProps =
  | { kind: "error"; problem: Pick<Problem, "title" | "detail">; retryHref: string }
  | { kind: "busy"; seconds: number; retryHref: string }
  | { kind: "past-end"; lastPageHref: string }
  | { kind: "no-match"; clearHref: string; search?: string | null; otherFilters?: boolean }
  | { kind: "filling"; progress: FillProgress | null | undefined }
  | { kind: "no-invoices" };

/**
 * What the invoice table shows in place of rows: the error, or why the page is empty and what to do, rendered
 * on the server with links, so each way out works before and without script.
 */
export function InvoiceTableMessage(props: InvoiceTableMessageProps) {
  switch (props.kind) {
    case "error":
      return (
        <ProblemState
          problem={props.problem}
          action={
            <Button asChild>
              <Link href={props.retryHref} prefetch={false}>
                Try again
              </Link>
            </Button>
          }
        />
      );
    case "busy":
      // The console shed this request (503, Retry-After): asked again once by itself; without script, a link.
      return (
        <div className="flex flex-col items-center gap-3 px-4 py-8">
          <BusyRetry
            key={props.retryHref}
            seconds={props.seconds}
            icon={<LoaderCircle aria-hidden className="size-4 shrink-0 animate-spin motion-reduce:animate-none" />}
          />
          <a href={props.retryHref} className="text-sm text-link underline-offset-4 hover:underline">
            Try again now
          </a>
        </div>
      );
    case "past-end":
      return (
        <EmptyState
          icon={<FileSearch />}
          title="This page is past the end of the list"
          action={
            <Button asChild>
              <Link href={props.lastPageHref} scroll={false}>
                Go to the last page
              </Link>
            </Button>
          }
        />
      );
    case "no-match":
      return (
        <EmptyState
          icon={<FileSearch />}
          title={
            props.search
              ? `No invoices match “${props.search}”${props.otherFilters ? " with these filters" : ""}`
              : "No invoices match these filters"
          }
          description={
            props.search
              ? "Search finds an order id from its start (ORD-2611…), a word of the order name, or an invoice id whole or from its end."
              : "Try another status, currency or date range."
          }
          action={
            <Button asChild>
              <Link href={props.clearHref} scroll={false}>
                Clear filters
              </Link>
            </Button>
          }
        />
      );
    case "filling":
      return (
        <EmptyState
          icon={<FileSearch />}
          title="Still reading your invoices"
          description={`${fillProgressSentence(props.progress)} This view is answered from the console's own copy of your invoices, which is being filled for the first time; this page updates by itself.`}
        />
      );
    case "no-invoices":
      return (
        <EmptyState icon={<Inbox />} title="No invoices yet" description="Invoices appear here as soon as the invoicing API issues them." />
      );
  }
}
