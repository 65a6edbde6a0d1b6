"use client";

import { Card, CardContent } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ArchiveForm } from "./archive-form";
import { CsvImport } from "./csv-import";

/** One invoice or a whole file. Both panels stay mounted, so switching tabs never loses what was typed. */
export function ArchiveTabs() {
  return (
    <Tabs defaultValue="one">
      <TabsList aria-label="How to record">
        <TabsTrigger value="one">One invoice</TabsTrigger>
        <TabsTrigger value="csv">Import a CSV</TabsTrigger>
      </TabsList>
      <TabsContent value="one" forceMount className="data-[state=inactive]:hidden">
        <Card>
          <CardContent>
            <ArchiveForm />
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
