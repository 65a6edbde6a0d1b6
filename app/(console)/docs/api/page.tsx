import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "@/components/docs/api-reference";
import { guardPage } from "@/lib/console/bff/page";
import { OPENAPI_PATH, openApiDocument } from "@/lib/sandbox/openapi";

export const metadata: Metadata = { title: "API reference" };

/** Everyone signed in may read how the sandbox's API works: it holds no invoice data. */
export default async function ApiReferencePage() {
  await guardPage("invoices:read");
  const href = `/sandbox/api/v1${OPENAPI_PATH}`;
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          The sandbox&apos;s invoicing API at <code className="font-mono text-xs">/sandbox/api/v1</code>, from its OpenAPI 3.1 document (
          <Link href={href} className="text-link underline-offset-4 hover:underline" prefetch={false}>
            openapi.json
          </Link>
          , no key needed).
        </p>
      </div>
      <ApiReference document={openApiDocument()} />
    </div>
  );
}
