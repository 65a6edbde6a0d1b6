import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { ThemeScript } from "@/components/theme/theme-script";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Invoice Console", template: "%s · Invoice Console" },
  description: "Look up, filter and manage crypto-payment invoices.",
  // An admin console has no business in search results; robots.txt says the same to well-behaved crawlers.
  robots: { index: false, follow: false },
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "32x32" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: "/apple-touch-icon.png",
  },
};

export const viewport: Viewport = {
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fafafa" },
    { media: "(prefers-color-scheme: dark)", color: "#09090b" },
  ],
};

/** proxy.ts puts a fresh nonce in the request's CSP header; the one inline script must carry it. */
function nonceFrom(csp: string | null): string | undefined {
  return csp?.match(/'nonce-([^']+)'/)?.[1];
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so each gets the Content-Security-Policy nonce from proxy.ts.
  await connection();
  const nonce = nonceFrom((await headers()).get("content-security-policy"));
  // The server decides the zone (the person's, else the business zone: lib/contract/time-zone.ts) and hands it to the
  // browser, so both draw the same days and times and hydration agrees.
  const timeZone = await requestTimeZone();
  return (
    // The pre-paint script sets the theme class and colour-scheme before React hydrates; React must not undo it.
    <html lang="en-GB" suppressHydrationWarning>
      <head>
        <ThemeScript nonce={nonce} />
      </head>
      <body>
        <Providers timeZone={timeZone}>{children}</Providers>
      </body>
    </html>
  );
}
