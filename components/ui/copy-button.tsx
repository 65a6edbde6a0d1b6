"use client";

import { useState } from "react";

/** Copies `value`; says so for a moment, to sighted and screen-reader users alike. */
export function CopyButton({ value, label, tabIndex }: { value: string; label: string; tabIndex?: number }) {
  const [copied, setCopied] = useState<boolean | "failed">(false);
  return (
    <button
      type="button"
      tabIndex={tabIndex}
      aria-label={copied === "failed" ? "Copy failed: select the text instead" : copied ? "Copied" : label}
      title={copied === "failed" ? "Copy failed: select the text instead" : copied ? "Copied" : label}
      onClick={async (event) => {
        event.stopPropagation();
        // The clipboard API exists only on secure origins (https, localhost).
        const ok = await navigator.clipboard?.writeText(value).then(
          () => true,
          () => false,
        );
        setCopied(ok ? true : "failed");
        setTimeout(() => setCopied(false), 1500);
      }}
      className="inline-grid size-6 shrink-0 place-items-center rounded text-muted-foreground hover:bg-accent hover:text-accent-foreground"
    >
      {copied === true ? (
        <svg aria-hidden viewBox="0 0 16 16" className="size-3.5 text-success-text" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M3 8.5l3 3 7-7" />
        </svg>
      ) : (
        <svg aria-hidden viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
          <path d="M10.5 3.5v-.5a1.5 1.5 0 0 0-1.5-1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" />
        </svg>
      )}
      <span role="status" className="sr-only">
        {copied === "failed" ? "Copy failed: select the text instead" : copied ? "Copied to clipboard" : ""}
      </span>
    </button>
  );
}
