import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Invoice Console", template: "%s · Invoice Console" },
  description: "Look up, filter and manage crypto-payment invoices.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so each gets the Content-Security-Policy nonce from proxy.ts.
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
