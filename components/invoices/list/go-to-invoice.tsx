"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { fetchJson } from "@/lib/browser/query/fetch-json";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { canonicalListSearch } from "@/lib/contract/list-search";
import { type OpenByIdTarget, openByIdTarget } from "@/lib/contract/open-by-id";

/**
 * "Open by invoice or order id": what was typed is looked up in the console's index (GET /api/search,
 * exact order id first, then the invoice id exact or its tail). One invoice → its page; several sharing an
 * order id → the list filtered by it; none → its page by the id as typed, since the provider may know an
 * invoice the index does not yet (the invoice page says so if it does not). Ids are the provider's and opaque.
 * Without script the form is a GET of the list searched for what was typed (`q` finds order and invoice ids).
 */
export function GoToInvoice() {
  const router = useRouter();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) {
      setError("Paste an order id or the full invoice id (the copy button beside each short id copies it).");
      return;
    }
    setPending(true);
    let target: OpenByIdTarget = { kind: "invoice", id: typed };
    try {
      const answer = await fetchJson(`/api/search?${new URLSearchParams({ q: typed })}`, (c) => c.searchAnswerSchema);
      target = openByIdTarget(typed, answer.results);
    } catch {
      // The index cannot answer now: the provider may still know it as an invoice id.
    }
    setPending(false);
    router.push(target.kind === "invoice" ? invoiceHref(target.id) : `/invoices${canonicalListSearch([["q", target.q]])}`);
  }

  return (
    <form
      method="get"
      action="/invoices"
      onSubmit={submit}
      className="flex w-full flex-col gap-1 sm:ml-auto sm:w-auto"
      role="search"
      aria-label="Open an invoice by invoice or order id"
    >
      <Field label="Open by invoice or order id" id="go-to-invoice" error={error} className="max-w-full sm:max-w-80">
        <div className="flex gap-2">
          <Input
            name="q"
            value={value}
            maxLength={200}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            placeholder="Paste an invoice or order id"
            className="font-mono placeholder:font-sans sm:w-64"
          />
          <Button type="submit" loading={pending}>
            Open
          </Button>
        </div>
      </Field>
    </form>
  );
}
