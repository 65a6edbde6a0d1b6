import type { Metadata } from "next";
import { LazyRatesPanel } from "@/components/rates/lazy-rates-panel";
import { guardPage } from "@/lib/console/bff/page";

export const metadata: Metadata = { title: "Rates" };

export default async function RatesPage() {
  await guardPage("invoices:read");
  return <LazyRatesPanel />;
}
