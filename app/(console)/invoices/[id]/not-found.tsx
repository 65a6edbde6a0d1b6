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
      description="Check the id for typos: paste it exactly as the invoicing API gives it."
      action={
        <Button variant="secondary" asChild>
          <Link href="/invoices">Back to all invoices</Link>
        </Button>
      }
    />
  );
}
