"use client";

import { Download } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import { Button } from "@/components/ui/button";
import { DeferredMenu } from "@/components/ui/deferred-menu";
import type { ExportFormat } from "@/lib/contract";
import { toListQuery } from "@/lib/contract/invoice-list-state";
import { useInvoiceListState } from "../list/use-invoice-list-state";
import type { ExportJob } from "./export-download";

// The menu (Radix) loads right after the page, the download code (stream reading, progress, saving) on first
// use: neither comes with the table's first load.
const loadDropdown = () => import("./export-menu-dropdown");
const loadExportDownload = () => import("./export-download");
const ExportDownload = dynamic(() => loadExportDownload().then((m) => m.ExportDownload), { ssr: false });

/** "Export CSV" / "Export JSON" of exactly the table's filter and sort: every matching invoice, not one page. */
export function ExportMenu() {
  const { state } = useInvoiceListState();
  const timeZone = useTimeZone();
  const [job, setJob] = useState<ExportJob | null>(null);
  const start = (format: ExportFormat, bom = false) => setJob({ id: Date.now(), format, bom, query: toListQuery(state, timeZone) });

  return (
    <>
      <DeferredMenu
        load={loadDropdown}
        trigger={
          <Button>
            <Download aria-hidden /> Export
          </Button>
        }
        render={({ ExportMenuDropdown }, props) => (
          <ExportMenuDropdown
            {...props}
            onOpenChange={(open) => {
              if (open) void loadExportDownload();
              props.onOpenChange(open);
            }}
            onStart={start}
          />
        )}
      />
      {job && <ExportDownload key={job.id} job={job} onRetry={() => setJob({ ...job, id: Date.now() })} onClose={() => setJob(null)} />}
    </>
  );
}
