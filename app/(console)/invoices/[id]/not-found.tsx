import { FileQuestion } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function InvoiceNotFound() {
  return (
    <EmptyState
      headingLevel={1}
      icon={<FileQuestion />}
      title="No invoice has this id"
      description="Check the id for typos: it looks like invoice_0190… or a bare UUID."
      action={
        <Button variant="secondary" asChild>
          <Link href="/invoices">Back to all invoices</Link>
        </Button>
      }
    />
  );
}
