"use client";

import { createContext, type ReactNode, useContext, useEffect } from "react";
import { DRAWN_FOR_FIELD } from "@/lib/contract/drawn-for";

/** Who the console layout drew the page for: every change is sent in their name (lib/contract/drawn-for.ts). */
export type PagePerson = { id: string; email: string };

const PagePersonContext = createContext<PagePerson | null>(null);
// The same, for `runAction` (called outside render): the layout drawn last, once hydrated.
let drawnFor: PagePerson | null = null;

/** The console layout's: who this page was drawn for, to the forms and actions below it. */
export function PagePersonProvider({ person, children }: { person: PagePerson; children: ReactNode }) {
  useEffect(() => {
    drawnFor = person;
  }, [person]);
  return <PagePersonContext value={person}>{children}</PagePersonContext>;
}

/** In render: who the page was drawn for (null outside the console layout). */
export function usePagePerson(): PagePerson | null {
  return useContext(PagePersonContext);
}

/** Outside render (an event handler): who the page on screen was drawn for. */
export function pagePerson(): PagePerson | null {
  return drawnFor;
}

/** Sets who a change is sent for, unless its form already names them (a hidden DrawnForField). */
export function sendFor(form: FormData, person: PagePerson | null): void {
  if (person && !form.has(DRAWN_FOR_FIELD)) form.set(DRAWN_FOR_FIELD, person.id);
}

/** For a form that also posts without script: who its page was drawn for, as a hidden field. */
export function DrawnForField() {
  const person = usePagePerson();
  return person ? <input type="hidden" name={DRAWN_FOR_FIELD} value={person.id} /> : null;
}
