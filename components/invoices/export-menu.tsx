"use client";

import { Download } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { ExportFormat } from "@/lib/invoicing";
import { toListQuery } from "@/lib/query/invoice-list-state";
import type { ExportJob } from "./export-download";
import { useInvoiceListState } from "./use-invoice-list-state";

// The download code (stream reading, progress, saving) loads on first use, not with the table.
const loadExportDownload = () => import("./export-download");
const ExportDownload = dynamic(() => loadExportDownload().then((m) => m.ExportDownload), { ssr: false });

/** "Export CSV" / "Export JSON" of exactly the table's filter and sort: every matching invoice, not one page. */
export function ExportMenu() {
  const { state } = useInvoiceListState();
  const [job, setJob] = useState<ExportJob | null>(null);
  const start = (format: ExportFormat, bom = false) => setJob({ id: Date.now(), format, bom, query: toListQuery(state) });

  return (
    <>
      <DropdownMenu onOpenChange={(open) => open && void loadExportDownload()}>
        <DropdownMenuTrigger asChild>
          <Button>
            <Download aria-hidden /> Export
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => start("csv")}>Export CSV</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => start("csv", true)}>Export CSV for Excel</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => start("json")}>Export JSON</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {job && <ExportDownload key={job.id} job={job} onRetry={() => setJob({ ...job, id: Date.now() })} onClose={() => setJob(null)} />}
    </>
  );
}
