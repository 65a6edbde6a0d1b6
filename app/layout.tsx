import type { Metadata, Viewport } from "next";
import { cookies, headers } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { ThemeScript } from "@/components/theme/theme-script";
import { TimeZoneScript } from "@/components/time-zone/time-zone-script";
import { displayTimeZone, TIME_ZONE_COOKIE } from "@/lib/time-zone";
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
  // Times are drawn on the server in the zone the browser reported (lib/time-zone.ts), so hydration agrees.
  const timeZone = displayTimeZone((await cookies()).get(TIME_ZONE_COOKIE)?.value);
  return (
    // The pre-paint script sets the theme class and colour-scheme before React hydrates; React must not undo it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript nonce={nonce} />
        <TimeZoneScript nonce={nonce} />
      </head>
      <body>
        <Providers timeZone={timeZone}>{children}</Providers>
      </body>
    </html>
  );
}
