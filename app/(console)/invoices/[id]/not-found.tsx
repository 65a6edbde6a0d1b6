import { FileQuestion } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ProblemState } from "@/components/ui/problem-state";
import { AskedInvoiceId, SearchListLink } from "./asked-id";

/**
 * The invoicing API has no invoice under the id asked. page.tsx calls notFound() before anything is sent (this
 * route has no loading boundary above it), so the answer is an HTTP 404 for people, monitors and crawlers
 * alike: the id, what to check, and the ways on.
 */
export default function InvoiceNotFound() {
  return (
    <ProblemState
      headingLevel={1}
      icon={<FileQuestion />}
      title="No invoice has this id"
      detail={
        <>
          <AskedInvoiceId />
          <span className="mt-2 block">
            The invoicing API has no invoice under this id, and it is no order id the console has read. Check it for typos: paste it exactly
            as the provider gives it. An invoice made a moment ago is read within a minute: try again then.
          </span>
        </>
      }
      action={
        <>
          <Button variant="secondary" asChild>
            <SearchListLink />
          </Button>
          <Button asChild>
            <Link href="/invoices">Back to all invoices</Link>
          </Button>
        </>
      }
    />
  );
}
