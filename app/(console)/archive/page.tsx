import type { Metadata } from "next";
import { ArchiveTabs } from "@/components/archive/archive-tabs";
import { guardPage } from "@/lib/console/bff/page";

export const metadata: Metadata = { title: "Record archived invoices" };

export default async function ArchivePage() {
  await guardPage("invoices:archive");
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Record archived invoices</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Bring invoices from before the payment provider, or from another system, into one place. They are recorded with status Archived
          and never send webhooks.
        </p>
      </div>
      <ArchiveTabs />
    </div>
  );
}
