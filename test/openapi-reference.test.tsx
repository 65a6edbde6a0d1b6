import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiReference, type OpenApiDocument } from "@/components/docs/api-reference";
import { normaliseOpenApi } from "@/lib/console/upstream/normalise-openapi";
import { openApiDocument } from "@/lib/sandbox/openapi";

/*
 * The API reference shows whatever OpenAPI document the provider serves (lib/console/docs/provider-openapi.ts).
 * Another provider's may be odd in places: those parts are left out, the rest is shown, and a well-formed
 * document, the sandbox's own, passes unchanged.
 */
const render = (document: unknown) => renderToStaticMarkup(<ApiReference document={document as OpenApiDocument} />);

describe("a provider's OpenAPI document on the API reference", () => {
  it("passes the sandbox's own document unchanged", () => {
    const own = JSON.parse(JSON.stringify(openApiDocument()));
    expect(normaliseOpenApi(own)).toEqual(own);
  });

  const odd = {
    openapi: "3.0.3",
    info: { title: "Another provider", version: "7", description: 12 },
    servers: [{}, { url: "https://api.example.com" }, "https://x"],
    tags: [null, { name: "Invoices" }, "Other"],
    paths: {
      "/gone": null,
      "/invoices": {
        get: {
          summary: "List invoices",
          tags: ["Invoices", 5],
          parameters: [null, { name: "page", in: "query", schema: "integer" }, { $ref: "#/components/parameters/Size" }],
          responses: {
            "200": { description: "A page", content: { "application/json": null, "text/csv": { schema: "csv" } } },
            "404": { description: 404, headers: { "X-Request-Id": null }, content: "none" },
            "500": null,
          },
        },
        post: { summary: "Create an invoice", parameters: "none", requestBody: { content: [] }, responses: null },
        delete: null,
      },
    },
    components: {
      schemas: { Broken: null, Invoice: { type: "object", properties: { id: null, status: { type: "string" } } } },
      securitySchemes: "none",
    },
  };

  it("leaves out the parts in no OpenAPI shape and shows the rest, where it failed as a whole before", () => {
    expect(() => render(odd)).toThrow();
    const document = normaliseOpenApi(odd);
    expect(document).not.toBeNull();
    const html = render(document);
    for (const shown of ["List invoices", "Create an invoice", "page", "A page", "https://api.example.com", "Invoice", "status"]) {
      expect(html).toContain(shown);
    }
  });

  it("is no document when its version, info or paths are missing", () => {
    expect(normaliseOpenApi({ ...odd, openapi: "2.0" })).toBeNull();
    expect(normaliseOpenApi({ ...odd, info: { title: 5, version: "1" } })).toBeNull();
    expect(normaliseOpenApi({ ...odd, paths: [] })).toBeNull();
    expect(normaliseOpenApi("<html>")).toBeNull();
  });
});
