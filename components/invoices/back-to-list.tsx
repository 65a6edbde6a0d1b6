"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { LIST_SEARCH_KEY } from "./invoice-href";

export function BackToList() {
  const [search, setSearch] = useState("");
  useEffect(() => setSearch(sessionStorage.getItem(LIST_SEARCH_KEY) ?? ""), []);
  return (
    <Link href={`/invoices${search}`} className="text-sm text-link hover:underline">
      ← All invoices
    </Link>
  );
}
