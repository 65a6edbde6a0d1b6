"use client";

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { ActionOutcome } from "@/components/ui/action-outcome";

type Outcome = { webhookId: string; ok?: string; error?: string };
type Outcomes = { say: (outcome: Outcome) => void; shown: (webhookId: string, shown: boolean) => void };
const Said = createContext<Outcomes | null>(null);
const Last = createContext<{ outcome: Outcome | null; rows: ReadonlySet<string> }>({ outcome: null, rows: new Set() });

/**
 * Where a resend's answer is said when the row that sent it is gone: in the failed view, a webhook resent and
 * delivered leaves it as the page is drawn again, and its answer with it. A row still drawn says its own. The
 * page keys this by its view, so an answer is not carried into another.
 */
export function ResendOutcomes({ children }: { children: ReactNode }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [rows, setRows] = useState<ReadonlySet<string>>(new Set());
  const shown = useCallback((webhookId: string, drawn: boolean) => {
    setRows((now) => {
      const next = new Set(now);
      if (drawn) next.add(webhookId);
      else next.delete(webhookId);
      return next;
    });
  }, []);
  const said = useMemo(() => ({ say: setOutcome, shown }), [shown]);
  return (
    <Said.Provider value={said}>
      <Last.Provider value={{ outcome, rows }}>{children}</Last.Provider>
    </Said.Provider>
  );
}

/** The last resend's answer, once its row is no longer drawn. */
export function ResendOutcomeNotice() {
  const { outcome, rows } = useContext(Last);
  return outcome && !rows.has(outcome.webhookId) ? <ActionOutcome state={outcome} /> : null;
}

/** A resend form's part: says its answers to the page, and while it is drawn. */
export function useResendOutcome(webhookId: string): ((answer: { ok?: string; error?: string }) => void) | null {
  const outcomes = useContext(Said);
  useEffect(() => {
    if (!outcomes) return;
    outcomes.shown(webhookId, true);
    return () => outcomes.shown(webhookId, false);
  }, [outcomes, webhookId]);
  return outcomes ? (answer) => outcomes.say({ webhookId, ...answer }) : null;
}
