import type { Metadata } from "next";
import Link from "next/link";
import { ArchiveTabs } from "@/components/archive/archive-tabs";
import { Notice } from "@/components/ui/notice";
import { guardPage } from "@/lib/console/bff/page";
import { upstream } from "@/lib/console/upstream/client";
import type { CurrencyList } from "@/lib/contract";
import { type ArchiveFormValues, EMPTY_ARCHIVE_FORM } from "@/lib/contract/archive-form-values";
import { invoiceHref } from "@/lib/contract/invoice-href";

export const metadata: Metadata = { title: "Record archived invoices" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The form's draft in the query: what was typed when the form was sent without script after the session had
 * ended (lib/console/invoices/actions.ts, recordArchivedFormAction), kept through sign-in.
 */
function draftOf(query: Record<string, string | string[] | undefined>): Partial<ArchiveFormValues> {
  const draft: Record<string, string> = {};
  for (const key of Object.keys(EMPTY_ARCHIVE_FORM)) {
    const value = one(query[key]);
    if (value !== undefined) draft[key] = value;
  }
  if (draft.amount_in !== undefined && draft.amount_in !== "crypto") draft.amount_in = "fiat";
  return draft as Partial<ArchiveFormValues>;
}

/** The currencies, drawn into the form by the server so it works before scripts load; null when they cannot be read. */
async function loadCurrencies(): Promise<CurrencyList | null> {
  try {
    return await upstream().listCurrencies();
  } catch {
    return null;
  }
}

export default async function ArchivePage({ searchParams }: Props) {
  await guardPage("invoices:archive");
  const query = await searchParams;
  const recorded = one(query.recorded);
  const currencies = await loadCurrencies();
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Record archived invoices</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Bring invoices from before the payment provider, or from another system, into one place. They are recorded with status Archived
          and never send webhooks.
        </p>
      </div>
      {recorded && (
        <Notice role="status" tone="success">
          Archived invoice recorded for order <strong>{one(query.order) ?? recorded}</strong>.{" "}
          <Link href={invoiceHref(recorded)} className="font-medium underline underline-offset-2">
            Open the invoice
          </Link>
        </Notice>
      )}
      <ArchiveTabs initial={draftOf(query)} initialCurrencies={currencies} />
    </div>
  );
}
