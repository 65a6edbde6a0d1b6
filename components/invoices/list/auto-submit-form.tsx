"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { type ComponentProps, type ReactNode, useEffect, useRef, useState, useTransition } from "react";
import { rememberListSearch } from "@/components/invoices/list/remembered-list-search";
import { canonicalListSearch } from "@/lib/contract/list-search";

/**
 * React keeps a select's first defaultValue (it updates an input's default, not a select's), so neither a new
 * view nor reset() would show in it: the view's value is also in data-value, which React keeps current, and
 * each select whose view changed is set to it (after every render: the URL and the server's rows may arrive in
 * different renders on back and forward).
 */
function showViewInSelects(form: HTMLFormElement, afterReset = false): void {
  for (const select of form.querySelectorAll<HTMLSelectElement>("select[data-value]")) {
    const value = select.dataset.value ?? "";
    if (!afterReset && select.dataset.shown === value) continue;
    select.dataset.shown = value;
    select.value = value;
  }
}

/** How long typing in a text box may pause before the list follows it. */
const TYPING_PAUSE_MS = 400;

/**
 * One of the list's GET forms. Without script it submits itself as a form does, and the server
 * redirects to the canonical URL; with script every change applies by itself, as the same canonical URL
 * pushed in a transition, so the rows on screen stay until the server has the next ones (a thin bar says so).
 */
export function AutoSubmitForm({ children, ...props }: Omit<ComponentProps<"form">, "method" | "action" | "onSubmit" | "onChange">) {
  const router = useRouter();
  const search = useSearchParams().toString();
  const [pending, startTransition] = useTransition();
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const shown = useRef(search);
  /** A select is being stepped through by keys (arrows step a closed one's value): it applies once they pause. */
  const keyed = useRef(false);
  /** The URL this form pushed last and has not yet seen arrive: the form is ahead of the URL until then. */
  const pushed = useRef<string | null>(null);

  const apply = () => {
    clearTimeout(timer.current);
    if (!form.current) return;
    const entries = [...new FormData(form.current).entries()].map(([k, v]): [string, string] => [k, String(v)]);
    const next = canonicalListSearch(entries);
    // Compared with where the list is going: while a push is in flight the address bar still shows the view
    // before it, so a tick then an untick would compare equal to that and never be pushed.
    if (next === (pushed.current ?? canonicalListSearch(new URLSearchParams(window.location.search).entries()))) return;
    pushed.current = next;
    // The address bar says the chosen view at once (Next.js's router follows history.pushState), and the
    // server's rows for it replace that entry when they arrive. So whatever reads "where the person is" while
    // they load reads the choice: another change, and a request of the page that meets an ended session,
    // which sends the person to sign in and back here (ARCHITECTURE.md §4), not to the view before it.
    window.history.pushState(null, "", `/invoices${next}`);
    startTransition(() => router.replace(`/invoices${next}`, { scroll: false }));
  };

  // Back/forward or a link changed the view: the controls show it (the server rendered them with the new
  // defaults), but what the person is typing into stays as it is.
  useEffect(() => {
    const element = form.current;
    if (!element || shown.current === search) return;
    shown.current = search;
    if (pushed.current !== null) {
      // This form's own change arriving (or an older one, with a newer on its way): it already shows it.
      if (canonicalListSearch(new URLSearchParams(search).entries()) === pushed.current) pushed.current = null;
      return;
    }
    const focused = document.activeElement;
    const typing = focused instanceof HTMLInputElement && element.contains(focused) && focused.type === "search" ? focused.value : null;
    element.reset();
    showViewInSelects(element, true);
    if (typing !== null && focused instanceof HTMLInputElement) focused.value = typing;
  }, [search]);

  // Every navigation this form started has settled (arrived, or been overtaken by a newer one): the form is
  // the truth, so if the URL ended up elsewhere, the form's view is pushed once more.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the transitions settle
  useEffect(() => {
    if (pending || pushed.current === null) return;
    pushed.current = null;
    apply();
  }, [pending]);

  useEffect(() => {
    if (form.current) showViewInSelects(form.current);
  });

  // A click elsewhere closes an open disclosure, as a popover would.
  useEffect(() => {
    const close = (event: PointerEvent) => {
      for (const details of form.current?.querySelectorAll("details[open]") ?? []) {
        if (!details.contains(event.target as Node)) (details as HTMLDetailsElement).open = false;
      }
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, []);

  return (
    <form
      ref={form}
      method="get"
      action="/invoices"
      {...props}
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
      onChange={(event) => {
        const target = event.target as unknown as HTMLInputElement;
        if (target.type === "search" || target.type === "text") return;
        if (target instanceof HTMLSelectElement && keyed.current) {
          clearTimeout(timer.current);
          timer.current = setTimeout(apply, TYPING_PAUSE_MS);
          return;
        }
        apply();
      }}
      onPointerDown={() => {
        keyed.current = false;
      }}
      onKeyDown={(event) => {
        keyed.current = event.target instanceof HTMLSelectElement;
        // A disclosure (the status filter) closes with Escape, as a popover would, back to its summary.
        const open = (event.target as HTMLElement).closest("details[open]");
        if (event.key !== "Escape" || !(open instanceof HTMLDetailsElement)) return;
        open.open = false;
        open.querySelector("summary")?.focus();
      }}
      onInput={(event) => {
        const target = event.target as unknown as HTMLInputElement;
        // A day typed as text (From, To) applies once it reads as one, or is emptied.
        const day = target.type === "text" && target.pattern !== "" && /^(\d{4}-\d{2}-\d{2})?$/.test(target.value);
        if (target.type !== "search" && !day) return;
        clearTimeout(timer.current);
        timer.current = setTimeout(apply, TYPING_PAUSE_MS);
      }}
    >
      {pending && (
        <div role="progressbar" aria-label="Loading invoices" className="fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-primary" />
      )}
      {children}
    </form>
  );
}

/** Remembers the list's view for "← All invoices" (remembered-list-search.ts) whenever it changes. */
export function RememberListSearch({ search }: { search: string }) {
  useEffect(() => rememberListSearch(search), [search]);
  return null;
}

/**
 * "Busy right now, retrying in 2 s…": the console shed the list's request (503, Retry-After), and the page is
 * rendered again once that has passed, once; still busy then (this notice is still here when that render has
 * arrived, whatever its seconds), the person decides (the server's link beside it). A view changed meanwhile
 * is a new notice (keyed by its URL in invoice-table-message.tsx) with a retry of its own.
 */
export function BusyRetry({ seconds, icon }: { seconds: number; icon: ReactNode }) {
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  const [left, setLeft] = useState(seconds);
  const [retried, setRetried] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one retry per notice, with the seconds it first said
  useEffect(() => {
    const ends = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const now = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      setLeft(now);
      if (now === 0) {
        clearInterval(timer);
        startRetry(() => {
          setRetried(true);
          router.refresh();
        });
      }
    }, 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-md border border-warning-border bg-warning-muted px-3 py-2 text-sm text-warning-text"
    >
      {(left > 0 || retrying) && icon}
      <span>
        {left > 0
          ? `Busy right now, retrying in ${left} s…`
          : retrying || !retried
            ? "Busy right now, retrying…"
            : "Still busy. Try again in a moment."}
      </span>
    </p>
  );
}
