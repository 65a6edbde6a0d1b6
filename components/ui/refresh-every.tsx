"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Renders the page again every `ms` while shown: what the server drew is still changing (a view answered from a
 * mirror still filling). Without script, the page's own link to itself does it.
 */
export function RefreshEvery({ ms }: { ms: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), ms);
    return () => clearInterval(timer);
  }, [ms, router]);
  return null;
}
