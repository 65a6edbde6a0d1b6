"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import type { ComponentProps } from "react";

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

/**
 * The list searched for what was asked (an order id, or part of an invoice id), on the not-found page: the link
 * alone, its look given by the server's Button (asChild), so the button's code stays out of the browser.
 */
export function SearchListLink(props: Omit<ComponentProps<"a">, "href" | "children">) {
  const id = useAskedId();
  if (!id) return null;
  // The list's own `q`, written here: the list's state module (and zod with it) would load with every invoice page.
  return (
    <Link {...props} href={`/invoices?${new URLSearchParams({ q: id })}`}>
      Search the list for it
    </Link>
  );
}
