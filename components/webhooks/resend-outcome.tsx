"use client";

import { createContext, type ReactNode, useContext, useState } from "react";
import { ActionOutcome } from "@/components/ui/action-outcome";

type Outcome = { ok?: string; error?: string };
const Said = createContext<((outcome: Outcome) => void) | null>(null);
const Shown = createContext<Outcome>({});

/**
 * Where a resend's answer is said when the row that sent it may be gone: in the failed view, a webhook resent
 * and delivered leaves it as the page is drawn again, and its answer with it. The page keeps it here instead.
 */
export function ResendOutcomes({ children }: { children: ReactNode }) {
  const [outcome, setOutcome] = useState<Outcome>({});
  return (
    <Said.Provider value={setOutcome}>
      <Shown.Provider value={outcome}>{children}</Shown.Provider>
    </Said.Provider>
  );
}

/** The last resend's answer, where the page puts it. */
export function ResendOutcomeNotice() {
  return <ActionOutcome state={useContext(Shown)} />;
}

/** How a resend form says its answer: to the page when it keeps one, else beside the form. */
export const useResendOutcomes = () => useContext(Said);
