"use client";

import { RotateCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";

/** Asks the server for the overview again; cards that loaded come from its short cache, the failed one is retried. */
export function RetryButton() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Button size="sm" loading={pending} onClick={() => startTransition(() => router.refresh())}>
      <RotateCw aria-hidden />
      Try again
    </Button>
  );
}
