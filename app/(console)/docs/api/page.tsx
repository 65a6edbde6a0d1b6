import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference, type OpenApiDocument } from "@/components/docs/api-reference";
import { guardPage } from "@/lib/console/bff/page";
import { providerOpenApi } from "@/lib/console/docs/provider-openapi";
import { env } from "@/lib/platform/env";

export const metadata: Metadata = { title: "API reference" };

/**
 * Everyone signed in may read how the invoicing API works: it holds no invoice data. The reference is the
 * provider's own OpenAPI document, read over HTTP like any answer, so against another provider it is that
 * provider's, never the sandbox's; a provider that serves none is said to. Rendered on the server as plain HTML.
 */
export default async function ApiReferencePage() {
  await guardPage("invoices:read");
  const document = await providerOpenApi();
  const embedded = env().embeddedSandbox;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          {document === null ? (
            <>
              The invoicing API this console works with serves no OpenAPI document at its base URL (
              <code className="font-mono text-xs">/openapi.json</code>), so there is no reference to show here. Ask the provider for its
              documentation.
            </>
          ) : embedded ? (
            <>
              The sandbox&apos;s invoicing API at <code className="font-mono text-xs">/sandbox/api/v1</code>, from its OpenAPI document (
              {/* Underlined, not only coloured: a link inside a sentence must not rely on colour alone (axe: link-in-text-block). */}
              <Link href="/sandbox/api/v1/openapi.json" className="text-link underline underline-offset-4" prefetch={false}>
                openapi.json
              </Link>
              , no key needed).
            </>
          ) : (
            <>The invoicing API this console works with, from the OpenAPI document it serves at its base URL.</>
          )}
        </p>
      </div>
      {document && <ApiReference document={document as unknown as OpenApiDocument} />}
    </div>
  );
}
