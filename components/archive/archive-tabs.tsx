"use client";

import dynamic from "next/dynamic";
import { Card, CardContent } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { CurrencyList } from "@/lib/contract";
import type { ArchiveFormValues } from "@/lib/contract/archive-form-values";
import { ArchiveForm } from "./archive-form";

// The import reads files in the browser and needs script anyway: its code loads after the page.
const CsvImport = dynamic(() => import("./csv-import").then((m) => m.CsvImport), {
  ssr: false,
  loading: () => <p className="text-sm text-muted-foreground">Loading the import…</p>,
});

/** One invoice or a whole file. Both panels stay mounted, so switching tabs never loses what was typed. */
export function ArchiveTabs(props: { initial?: Partial<ArchiveFormValues>; initialCurrencies?: CurrencyList | null }) {
  return (
    <Tabs defaultValue="one">
      <TabsList aria-label="How to record">
        <TabsTrigger value="one">One invoice</TabsTrigger>
        <TabsTrigger value="csv">Import a CSV</TabsTrigger>
      </TabsList>
      <TabsContent value="one" forceMount className="data-[state=inactive]:hidden">
        <Card>
          <CardContent>
            <ArchiveForm {...props} />
          </CardContent>
        </Card>
      </TabsContent>
      <TabsContent value="csv" forceMount className="data-[state=inactive]:hidden">
        <Card>
          <CardContent>
            <CsvImport />
          </CardContent>
        </Card>
      </TabsContent>
    </Tabs>
  );
}
