import Link from "next/link";

export default function InvoiceNotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-xl font-semibold">No invoice has this id</h1>
      <p className="text-sm text-zinc-600">Check the id for typos: paste it exactly as the invoicing API gives it.</p>
      <Link href="/invoices" className="text-sm font-medium text-indigo-700 hover:underline">
        Back to all invoices
      </Link>
    </div>
  );
}
