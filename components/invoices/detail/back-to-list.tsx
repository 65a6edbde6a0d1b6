"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { rememberedListSearch } from "@/components/invoices/list/remembered-list-search";

export function BackToList() {
  const [search, setSearch] = useState("");
  useEffect(() => setSearch(rememberedListSearch()), []);
  return (
    <Link href={`/invoices${search}`} className="text-sm text-link hover:underline">
      ← All invoices
    </Link>
  );
}
