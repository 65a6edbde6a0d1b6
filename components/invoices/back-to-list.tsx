"use client";

import Link from "next/link";
import { useEffect, useState } from "react";

/** Where the list was: the invoice table remembers its query so "back" restores filters, sort and page. */
export const LIST_SEARCH_KEY = "invoice-console:list-search";

export function BackToList() {
  const [search, setSearch] = useState("");
  useEffect(() => setSearch(sessionStorage.getItem(LIST_SEARCH_KEY) ?? ""), []);
  return (
    <Link href={`/invoices${search}`} className="text-sm text-link hover:underline">
      ← All invoices
    </Link>
  );
}
