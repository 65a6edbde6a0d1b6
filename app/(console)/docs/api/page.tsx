import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference, type OpenApiDocument } from "@/components/docs/api-reference";
import { guardPage } from "@/lib/console/bff/page";
import { OPENAPI_PATH, openApiDocument } from "@/lib/sandbox/openapi";

export const metadata: Metadata = { title: "API reference" };

/**
 * Everyone signed in may read how the sandbox's API works: it holds no invoice data. It documents the sandbox
 * (the API this console ships), whichever provider the console itself talks to, so it reads the sandbox's own
 * document in process, rendered on the server as plain HTML (components/docs/api-reference.tsx).
 */
export default async function ApiReferencePage() {
  await guardPage("invoices:read");
  const href = `/sandbox/api/v1${OPENAPI_PATH}`;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          The sandbox&apos;s invoicing API at <code className="font-mono text-xs">/sandbox/api/v1</code>, from its OpenAPI 3.1 document (
          {/* Underlined, not only coloured: a link inside a sentence must not rely on colour alone (axe: link-in-text-block). */}
          <Link href={href} className="text-link underline underline-offset-4" prefetch={false}>
            openapi.json
          </Link>
          , no key needed).
        </p>
      </div>
      <ApiReference document={openApiDocument() as unknown as OpenApiDocument} />
    </div>
  );
}
