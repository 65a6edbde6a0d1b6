"use client";

import { BookmarkPlus } from "lucide-react";
import dynamic from "next/dynamic";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { serializeInvoiceListState } from "@/lib/contract/invoice-list-state";
import type { SavedView } from "@/lib/contract/saved-view";
import { useInvoiceListState } from "./use-invoice-list-state";

// The dialog (Radix, the form, the list of views) loads on first use: the table's first load does without it.
const loadDialog = () => import("./save-view-dialog");
const SaveViewDialog = dynamic(() => loadDialog().then((m) => m.SaveViewDialog), { ssr: false });

/**
 * "Save view": the list's current query string without `page`, under a name, for oneself or the team.
 * The dialog also lists the saved views, with Remove where this person may remove one.
 */
export function SaveView({ views }: { views: SavedView[] }) {
  const { state } = useInvoiceListState();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const query = serializeInvoiceListState({ ...state, page: null }).replace(/^\?/, "");
  const current = views.find((v) => v.query === query);
  return (
    <>
      <Button
        ref={button}
        onPointerEnter={() => void loadDialog()}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        title={current ? `This view is saved as “${current.name}”` : undefined}
      >
        <BookmarkPlus aria-hidden /> Save view
      </Button>
      {open && (
        <SaveViewDialog
          query={query}
          views={views}
          current={current}
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </>
  );
}
