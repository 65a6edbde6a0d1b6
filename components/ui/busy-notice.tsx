"use client";

import { LoaderCircle } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/browser/cn";

/** Seconds left of a wait that started when this was first shown; ticks once a second down to zero. */
function useCountdown(seconds: number): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const ends = Date.now() + seconds * 1000;
    const timer = setInterval(() => setLeft(Math.max(0, Math.ceil((ends - Date.now()) / 1000))), 250);
    return () => clearInterval(timer);
  }, [seconds]);
  return left;
}

/**
 * "Busy, retrying in 2 s": the console shed this request rather than keep the person waiting, and the page
 * asks again by itself. A status (polite), since nothing needs doing.
 */
export function BusyNotice({ seconds, className }: { seconds: number; className?: string }) {
  const left = useCountdown(seconds);
  return (
    <Notice role="status" tone="warning" className={cn("flex items-center gap-2", className)}>
      <LoaderCircle aria-hidden className="size-4 shrink-0 animate-spin motion-reduce:animate-none" />
      <span>{left > 0 ? `Busy right now, retrying in ${left} s…` : "Busy right now, retrying…"}</span>
    </Notice>
  );
}

/**
 * For a page rendered on the server that came back busy: waits as long as the answer asked, then renders the
 * page again, once. If it is still busy after that, the person decides when to try again.
 */
export function RetryOnceWhenBusy({ seconds }: { seconds: number }) {
  const router = useRouter();
  const [retried, setRetried] = useState(false);
  const fired = useRef(false);
  useEffect(() => {
    if (retried) return;
    const timer = setTimeout(() => {
      if (fired.current) return;
      fired.current = true;
      setRetried(true);
      router.refresh();
    }, seconds * 1000);
    return () => clearTimeout(timer);
  }, [retried, router, seconds]);
  return retried ? <Button onClick={() => router.refresh()}>Try again</Button> : <BusyNotice seconds={seconds} />;
}
