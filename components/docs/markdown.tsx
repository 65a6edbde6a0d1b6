import type { ReactNode } from "react";

// The little Markdown an OpenAPI document's descriptions use (paragraphs, lists, `code`, **bold**), as HTML.

/** `code` and **bold** inside a line of the document's Markdown. */
export function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).map((part, i) => {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
      return (
        <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em] break-words">
          {part.slice(1, -1)}
        </code>
      );
    }
    if (part.startsWith("**") && part.endsWith("**") && part.length > 3) {
      return (
        <strong key={i} className="font-semibold text-foreground">
          {part.slice(2, -2)}
        </strong>
      );
    }
    return part;
  });
}

/** The document's descriptions: paragraphs and "- " lists of CommonMark, which is all it uses. */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const blocks = text.trim().split(/\n\s*\n/);
  return (
    // A long figure (a limit such as 99,999,999,999,999,999,999.99…) breaks rather than widen a phone's page.
    <div className={`wrap-anywhere ${className ?? "flex flex-col gap-2 text-sm text-muted-foreground"}`}>
      {blocks.map((block, i) => {
        const lines = block.split("\n");
        if (lines.every((line) => /^\s*[-*] /.test(line) || /^\s{2,}\S/.test(line))) {
          const items = block.split(/\n(?=\s*[-*] )/).map((item) => item.replace(/^\s*[-*] /, "").replace(/\n\s+/g, " "));
          return (
            <ul key={i} className="list-disc space-y-1 pl-5">
              {items.map((item, j) => (
                <li key={j}>{inline(item)}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{inline(lines.join(" "))}</p>;
      })}
    </div>
  );
}

/** A schema's type in a few words: "string", "integer | null", "array of Invoice", "one of: a, b". */
