"use client";

import dynamic from "next/dynamic";
import "@scalar/api-reference-react/style.css";
import { useTheme } from "@/components/theme/theme-provider";

// Scalar builds its reference in the browser (it mounts a Vue app); the server renders the loading line.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="p-6 text-sm text-muted-foreground">Loading the API reference…</p>,
});

/**
 * The sandbox's OpenAPI document rendered by Scalar, bundled with the console: no fonts, scripts or
 * telemetry from the internet (the console's CSP would refuse them anyway). It follows the console's theme.
 */
export function ApiReference({ document }: { document: object }) {
  const { resolvedTheme } = useTheme();
  return (
    <div className="api-reference overflow-hidden rounded-lg border border-border bg-card">
      <ApiReferenceReact
        configuration={{
          content: document,
          withDefaultFonts: false,
          telemetry: false,
          // Scalar's AI agent calls its own servers, and turns itself on for local addresses unless told not to.
          agent: { disabled: true },
          hideDarkModeToggle: true,
          forceDarkModeState: resolvedTheme === "dark" ? "dark" : "light",
          hideClientButton: false,
          documentDownloadType: "json",
          showDeveloperTools: "never",
          defaultOpenAllTags: true,
          theme: "default",
          // The console's own system fonts, so the reference reads as part of it (no web fonts are loaded).
          customCss: ".scalar-app, .scalar-api-reference { --scalar-font: var(--font-sans); --scalar-font-code: var(--font-mono); }",
        }}
      />
    </div>
  );
}
