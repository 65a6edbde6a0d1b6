import Link from "next/link";
import { cn } from "@/lib/browser/cn";
import { shortInvoiceId } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";

/**
 * An invoice as a link, named by its order id when the console's index knows one, else by its id; `short`
 * shows the id's tail (as the invoice list does), so what stands beside it has room.
 */
export function InvoiceLink({
  invoiceId,
  orderId,
  short,
  className,
}: {
  invoiceId: string | null;
  orderId?: string;
  short?: boolean;
  className?: string;
}) {
  if (!invoiceId) return "—";
  return (
    <Link
      href={invoiceHref(invoiceId)}
      aria-label={orderId ? `${orderId} (${invoiceId})` : short ? invoiceId : undefined}
      title={orderId ? `${orderId} (${invoiceId})` : short ? invoiceId : undefined}
      className={cn("font-mono underline underline-offset-2", orderId && "inline-block max-w-[24ch] truncate align-bottom", className)}
    >
      {orderId ?? (short ? shortInvoiceId(invoiceId) : invoiceId)}
    </Link>
  );
}
