"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { Button } from "@/components/ui/button";

/** The id as it was linked or pasted: a not-found file gets no params, and Next.js hands them over still percent-encoded. */
function useAskedId(): string {
  const raw = useParams<{ id: string }>().id ?? "";
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return raw.trim();
  }
}

/** The invoice id the person asked for, on the not-found page. */
export function AskedInvoiceId() {
  const id = useAskedId();
  return id ? <span className="block font-mono text-xs [overflow-wrap:anywhere] text-foreground">{id}</span> : null;
}

/** The list searched for what was asked (an order id, or part of an invoice id), on the not-found page. */
export function SearchListForId() {
  const id = useAskedId();
  if (!id) return null;
  return (
    <Button variant="secondary" asChild>
      {/* The list's own `q`, written here: the list's state module (and zod with it) would load with every invoice page. */}
      <Link href={`/invoices?${new URLSearchParams({ q: id })}`}>Search the list for it</Link>
    </Button>
  );
}
