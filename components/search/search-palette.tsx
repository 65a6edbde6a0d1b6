"use client";

import { useQuery } from "@tanstack/react-query";
import { Command } from "cmdk";
import { List, Loader2, Search } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { StatusBadge } from "@/components/invoices/status-badge";
import { DateTime } from "@/components/ui/date-time";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { cn } from "@/lib/browser/cn";
import { searchOptions } from "@/lib/browser/query/search";
import { useDebounced } from "@/lib/browser/use-debounced";
import type { SearchIndexState, SearchMatch, SearchResult } from "@/lib/contract";
import { fillProgress, fillProgressSentence } from "@/lib/contract/fill-progress";
import { formatAge, formatFiat, MISSING } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { canonicalListSearch } from "@/lib/contract/list-search";

/** The item that opens the invoice list searched for what was typed (no invoice id looks like it). */
const ALL_MATCHES = "all matches in the list";

const MATCH_LABELS: Record<SearchMatch, string> = {
  order_id: "Order id",
  invoice_id: "Invoice id",
  order_id_prefix: "Order id begins",
  words: "Order name",
};

/**
 * The search palette: results as one types (order id, words of the order name, invoice id), arrow keys
 * move, Enter opens the invoice (read from the provider there), Escape closes. cmdk gives the combobox
 * and listbox their ARIA and keys; Radix's dialog traps focus and returns it to the opener.
 */
export default function SearchPalette(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocus: () => HTMLElement | null;
  /** What was typed after the shortcut while this was on its way: it starts the query. */
  typedAhead?: () => string;
}) {
  const { open, onOpenChange, returnFocus, typedAhead } = props;
  const router = useRouter();
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), 120);
  const { data, error, isFetching } = useQuery(searchOptions(q));
  const answer = q && data ? data : undefined;
  const shown = answer && text.trim() ? answer.results : [];

  const [navigating, setNavigating] = useState(false);
  // The highlighted result, held here: cmdk highlights the first item only as it mounts, so results that arrive
  // (or change) while the person types slowly were left with none highlighted and Enter did nothing.
  // Whenever the results change, the first one is highlighted unless the highlighted one is still among them.
  const [highlighted, setHighlighted] = useState("");
  const resultIds = answer?.results.map((r) => r.invoice_id).join("\n") ?? "";
  useEffect(() => {
    const ids = resultIds ? resultIds.split("\n") : [];
    setHighlighted((current) => (ids.includes(current) ? current : (ids[0] ?? "")));
  }, [resultIds]);

  function openInvoice(result: SearchResult) {
    setNavigating(true);
    onOpenChange(false);
    router.push(invoiceHref(result.invoice_id));
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-search-palette
        showClose={false}
        look="palette"
        onOpenAutoFocus={() => {
          setNavigating(false);
          const typed = typedAhead?.() ?? "";
          if (typed) setText((current) => current + typed);
        }}
        onCloseAutoFocus={(event) => {
          // Radix would focus the dialog's trigger, but it opens from a shortcut too: back to what had focus,
          // unless an invoice is opening (its page takes focus).
          event.preventDefault();
          if (!navigating) returnFocus()?.focus();
        }}
      >
        <DialogTitle className="sr-only">Find an invoice</DialogTitle>
        <DialogDescription className="sr-only">
          Type an order id, words of the order name, or an invoice id. Arrow keys move through the results, Enter opens the invoice, Escape
          closes.
        </DialogDescription>
        <Command
          shouldFilter={false}
          loop
          label="Find an invoice"
          value={highlighted}
          onValueChange={setHighlighted}
          className="flex min-h-0 flex-col"
        >
          <div className="flex items-center gap-2 border-b border-border px-4">
            {isFetching ? (
              <Loader2 aria-hidden className="size-4 shrink-0 animate-spin text-muted-foreground" />
            ) : (
              <Search aria-hidden className="size-4 shrink-0 text-muted-foreground" />
            )}
            <Command.Input
              value={text}
              onValueChange={setText}
              placeholder="Order id, order name or invoice id…"
              aria-label="Find an invoice by order id, order name or invoice id"
              maxLength={200}
              className="h-12 w-full bg-transparent text-base outline-none placeholder:text-muted-foreground sm:text-sm"
            />
            <kbd className="hidden rounded border border-border bg-muted px-1.5 font-mono text-[0.7rem] text-muted-foreground sm:inline">
              Esc
            </kbd>
          </div>
          {/* The listbox holds options only: a hint, "searching" or "no match" is said beside it, not in it. */}
          <Command.List className={cn("max-h-[min(60vh,26rem)] overflow-y-auto", shown.length > 0 && "p-2")}>
            {shown.length > 0 && <Results results={shown} onOpen={openInvoice} />}
            {shown.length > 0 && (
              // The palette shows the best few; the list shows every match, sorted and paged.
              <Command.Item
                value={ALL_MATCHES}
                onSelect={() => {
                  setNavigating(true);
                  onOpenChange(false);
                  router.push(`/invoices${canonicalListSearch([["q", q]])}`);
                }}
                className="mt-1 flex cursor-pointer items-center gap-2 rounded-md border-t border-border px-3 py-2 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
              >
                <List aria-hidden className="size-4 text-muted-foreground" />
                Every invoice matching “{q}”, in the invoice list
              </Command.Item>
            )}
          </Command.List>
          <Message text={text} q={q} answer={answer} error={error} fetching={isFetching} />
          {answer && <Freshness index={answer.index} />}
        </Command>
      </DialogContent>
    </Dialog>
  );
}

function Message(props: {
  text: string;
  q: string;
  answer: { results: SearchResult[] } | undefined;
  error: Error | null;
  fetching: boolean;
}) {
  const { text, q, answer, error, fetching } = props;
  if (!text.trim()) {
    return (
      <p className="px-3 py-6 text-center text-sm text-muted-foreground">
        Type an order id (like ORD-2611-002399), words of what was ordered, or an invoice id.
      </p>
    );
  }
  if (error && !answer) {
    const problem = error as { title?: string; detail?: string };
    return (
      <div role="alert" className="px-3 py-6 text-center text-sm">
        <p className="font-medium">{problem.title ?? "Search failed"}</p>
        <p className="mt-1 text-muted-foreground">{problem.detail ?? "Try again in a moment."}</p>
      </div>
    );
  }
  if (!answer) {
    return (
      <p role="status" className="px-3 py-6 text-center text-sm text-muted-foreground">
        Searching…
      </p>
    );
  }
  if (answer.results.length === 0) {
    return (
      <p role="status" className="px-3 py-6 text-center text-sm text-muted-foreground">
        {fetching || q !== text.trim()
          ? "Searching…"
          : `No invoice matches “${q}”. Order ids, words of the order name and invoice ids are searched.`}
      </p>
    );
  }
  return null;
}

function Results({ results, onOpen }: { results: SearchResult[]; onOpen: (r: SearchResult) => void }) {
  return (
    <Command.Group
      heading="Invoices"
      className="[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
    >
      {results.map((result) => (
        <Command.Item
          key={result.invoice_id}
          value={result.invoice_id}
          onSelect={() => onOpen(result)}
          className="flex cursor-pointer flex-col gap-1 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground sm:flex-row sm:items-center sm:gap-3"
        >
          <div className="min-w-0 flex-1">
            <div className="flex items-center gap-2">
              <span className="truncate font-medium">{result.order_id ?? MISSING}</span>
              <span className="shrink-0 text-xs text-muted-foreground">{MATCH_LABELS[result.match]}</span>
            </div>
            <div className="truncate text-xs text-muted-foreground">
              <bdi>{result.order_name || result.invoice_id}</bdi>
            </div>
          </div>
          <div className="flex shrink-0 items-center gap-3">
            <StatusBadge status={result.status} />
            <span className="w-24 text-right tabular-nums">
              {result.fiat_amount === null ? MISSING : formatFiat(result.fiat_amount, result.fiat_currency ?? "EUR")}
            </span>
            <span className="hidden w-40 text-right text-xs whitespace-nowrap text-muted-foreground tabular-nums sm:inline">
              <DateTime iso={result.created_at} />
            </span>
          </div>
        </Command.Item>
      ))}
    </Command.Group>
  );
}

/** Never stale in silence: how complete and how fresh the index is. */
function Freshness({ index }: { index: SearchIndexState }) {
  let text: string;
  if (index.state === "filling") {
    text = `${fillProgressSentence(fillProgress(index))} An invoice may be missing from the search until then.`;
  } else if (index.age_seconds !== null) {
    text = `Index as of ${formatAge(index.age_seconds)}. Opening an invoice reads it from the invoicing API.`;
  } else {
    text = "Index complete; its first sync is under way.";
  }
  const paused =
    index.paused_reason === "rate_limited"
      ? " Syncing waits: the invoicing API asked the console to slow down."
      : index.paused_reason
        ? " The last sync failed; it will be tried again."
        : "";
  return (
    <p className="border-t border-border px-4 py-2 text-xs text-muted-foreground" data-testid="search-freshness">
      {text}
      {paused}
    </p>
  );
}
