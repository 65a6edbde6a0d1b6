import { readdirSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as archivedRoute } from "@/app/sandbox/api/v1/archived/route";
import { GET as currenciesRoute } from "@/app/sandbox/api/v1/currencies/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/sandbox/api/v1/invoices/[id]/route";
import { GET as listRoute } from "@/app/sandbox/api/v1/invoices/route";
import { GET as openApiRoute } from "@/app/sandbox/api/v1/openapi.json/route";
import { GET as ratesRoute } from "@/app/sandbox/api/v1/rates/route";
import { POST as redeliverRoute } from "@/app/sandbox/api/v1/webhook-deliveries/[delivery_id]/redeliver/route";
import { GET as deliveriesRoute } from "@/app/sandbox/api/v1/webhook-deliveries/route";
import { ALLOWED_ERROR_PERCENT_DEFAULT } from "@/lib/contract";
import { answeredMethods } from "@/lib/platform/http-methods";
import { getSandboxDb } from "@/lib/sandbox";
import { createTestMerchant } from "@/test/sandbox-fixtures";

const root = path.resolve(import.meta.dirname, "../..");
const API_DIR = "app/sandbox/api/v1";
const BASE = "http://sandbox.test/sandbox/api/v1";
// Read by lib/platform/env on first use: a small limit lets the 429 be reached in a few calls.
process.env.SANDBOX_RATES_LIMIT = "2";

type Doc = {
  openapi: string;
  info: { description: string };
  paths: Record<
    string,
    Record<string, { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: Record<string, Record<string, unknown>>;
};
let doc: Doc;
let key: string;
let readOnlyKey: string;
let invoiceId: string;
let ratesKey: string;
let ratesAtKey: string;

beforeAll(async () => {
  const response = await openApiRoute(new Request(`${BASE}/openapi.json`), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  doc = await response.json();
  const db = await getSandboxDb();
  const merchant = await createTestMerchant(db, [{ createdAt: new Date("2026-06-01T10:00:00Z"), status: "pending" }]);
  key = merchant.key;
  invoiceId = `invoice_${merchant.invoices[0].id}`;
  readOnlyKey = (await createTestMerchant(db, [], ["invoices:read"])).key;
  ratesKey = (await createTestMerchant(db, [])).key;
  ratesAtKey = (await createTestMerchant(db, [])).key;
});

describe("the OpenAPI document at /sandbox/api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, served without a key", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.paths["/openapi.json"].get.security).toEqual([]);
  });

  it("documents every route under app/sandbox/api/v1 with every method it answers", async () => {
    const files = (readdirSync(path.join(root, API_DIR), { recursive: true }) as string[]).filter((f) => path.basename(f) === "route.ts");
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const route = `/${path.dirname(file).split(path.sep).join("/")}`.replace(
        /\[(\w+)\]/g,
        (_, name) => `{${name === "id" ? "invoice_id" : name}}`,
      );
      const module = await import(/* @vite-ignore */ path.join(root, API_DIR, file));
      expect(doc.paths[route], `${route} is documented`).toBeDefined();
      expect(Object.keys(doc.paths[route]).sort(), route).toEqual(
        answeredMethods(module)
          .map((m) => m.toLowerCase())
          .sort(),
      );
    }
  });

  it("states ARCHITECTURE.md §3's decisions: the key scheme, ids, errors, the allowed-error default, rate limit headers", () => {
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "Api-key" });
    expect(doc.info.description).toContain("invoice_<uuid v7>");
    expect(doc.info.description).toContain("application/problem+json");
    expect(doc.info.description).toContain(`defaults to **${ALLOWED_ERROR_PERCENT_DEFAULT}**`);
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit", "Retry-After"]));
    const body = (
      doc.paths["/archived"].post as unknown as {
        requestBody: {
          content: {
            "application/json": { schema: { properties: Record<string, { anyOf: { default?: number }[] } & { default?: number }> } };
          };
        };
      }
    ).requestBody.content["application/json"].schema;
    expect(JSON.stringify(body.properties.allowed_error_percent)).toContain(`"default":${ALLOWED_ERROR_PERCENT_DEFAULT}`);
  });

  it("says what a plain date means for each bound of GET /invoices: the day's start in UTC, both bounds exclusive", () => {
    const list = doc.paths["/invoices"].get as unknown as {
      parameters: { name: string; description?: string; schema?: { description?: string } }[];
    };
    const said = (name: string) => {
      const parameter = list.parameters.find((p) => p.name === name)!;
      return `${parameter.description ?? ""} ${parameter.schema?.description ?? ""}`;
    };
    expect(said("created_after")).toContain("strictly after this instant. A plain date means the start of that day in UTC");
    expect(said("created_before")).toContain("strictly before this instant. A plain date means the start of that day in UTC");
    expect(said("created_before")).toContain("send the day after it");
  });

  it("says GET /rates is simulated and limited, with its headers and its 429", () => {
    const rates = doc.paths["/rates"].get as unknown as {
      description: string;
      responses: Record<string, { headers?: Record<string, unknown> }>;
    };
    expect(rates.description).toContain("Simulated");
    expect(doc.info.description).toContain("simulated market");
    expect(Object.keys(rates.responses)).toEqual(expect.arrayContaining(["200", "401", "429"]));
    expect(Object.keys(rates.responses["200"].headers ?? {})).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit"]));
    expect(Object.keys(rates.responses["429"].headers ?? {})).toEqual(
      expect.arrayContaining(["RateLimit-Policy", "RateLimit", "Retry-After"]),
    );
  });
});

describe("the document says what the server enforces", () => {
  type Schema = Record<string, unknown>;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item).map(([method, op]) => ({ name: `${method} ${p}`, op: op as unknown as Schema & { responses: Schema } })),
    );

  it("writes no bound it does not enforce: no ±(2^53 − 1) left by the generator", () => {
    expect(JSON.stringify(doc)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it("reads page and page_size as integers with their bounds, and the list's dates as a date or a date-time", () => {
    const parameters = (doc.paths["/invoices"].get as unknown as { parameters: { name: string; schema: Schema }[] }).parameters;
    const schema = (name: string) => parameters.find((p) => p.name === name)!.schema;
    expect(schema("page")).toMatchObject({ type: "integer", minimum: 1, default: 1 });
    expect(schema("page_size")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    for (const name of ["created_after", "created_before"])
      expect((schema(name).anyOf as Schema[]).map((s) => s.format)).toEqual(["date", "date-time"]);
  });

  it("states the invoice's status and allowed_error_percent as the server answers them", () => {
    const invoice = doc.components.schemas.Invoice as { properties: Record<string, Schema> };
    expect(invoice.properties.status.enum).toEqual(["new", "pending", "completed", "expired", "cancelled", "paid_partial", "archived"]);
    expect(invoice.properties.allowed_error_percent).toMatchObject({ type: "integer", minimum: 0, maximum: 100 });
  });

  it("a problem has type, title, status, detail and code", () => {
    expect((doc.components.schemas.Problem as { required: string[] }).required).toEqual(["type", "title", "status", "detail", "code"]);
  });

  it("every operation answers 405; every one with a body 413 and 415 as well", () => {
    for (const { name, op } of operations()) {
      const statuses = Object.keys(op.responses);
      expect(statuses, name).toContain("405");
      if (op.requestBody) expect(statuses, name).toEqual(expect.arrayContaining(["413", "415"]));
    }
  });
});

describe("the sandbox's real answers match the document's response schemas", () => {
  const ajv = () => {
    const a = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    a.addSchema(doc as object, "doc");
    return a;
  };

  type Route = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
  const call = (route: Route, method: string, url: string, options: { key?: string | null; body?: string; params?: object } = {}) => {
    const apiKey = options.key === undefined ? key : options.key;
    return route(
      new Request(`${BASE}${url}`, {
        method,
        headers: { ...(apiKey ? { "api-key": apiKey } : {}), "content-type": "application/json" },
        body: options.body,
      }),
      { params: Promise.resolve((options.params ?? {}) as never) },
    );
  };

  const cases: { name: string; path: string; method: string; run: () => Promise<Response> }[] = [
    { name: "list", path: "/invoices", method: "get", run: () => call(listRoute, "GET", "/invoices?page_size=5") },
    { name: "list, bad page_size", path: "/invoices", method: "get", run: () => call(listRoute, "GET", "/invoices?page_size=500") },
    { name: "list, no key", path: "/invoices", method: "get", run: () => call(listRoute, "GET", "/invoices", { key: null }) },
    {
      name: "get",
      path: "/invoices/{invoice_id}",
      method: "get",
      run: () => call(getRoute, "GET", `/invoices/${invoiceId}`, { params: { id: invoiceId } }),
    },
    {
      name: "get, unknown",
      path: "/invoices/{invoice_id}",
      method: "get",
      run: () => call(getRoute, "GET", "/invoices/nope", { params: { id: "nope" } }),
    },
    {
      name: "patch",
      path: "/invoices/{invoice_id}",
      method: "patch",
      run: () => call(patchRoute, "PATCH", `/invoices/${invoiceId}`, { params: { id: invoiceId }, body: '{"status":"expired"}' }),
    },
    {
      name: "patch, not JSON",
      path: "/invoices/{invoice_id}",
      method: "patch",
      run: () => call(patchRoute, "PATCH", `/invoices/${invoiceId}`, { params: { id: invoiceId }, body: "x" }),
    },
    {
      name: "patch, read-only key",
      path: "/invoices/{invoice_id}",
      method: "patch",
      run: () =>
        call(patchRoute, "PATCH", `/invoices/${invoiceId}`, { key: readOnlyKey, params: { id: invoiceId }, body: '{"status":"expired"}' }),
    },
    {
      name: "patch, an unknown field",
      path: "/invoices/{invoice_id}",
      method: "patch",
      run: () =>
        call(patchRoute, "PATCH", `/invoices/${invoiceId}`, { params: { id: invoiceId }, body: '{"status":"completed","fiat_amount":0}' }),
    },
    {
      name: "patch, sent as text",
      path: "/invoices/{invoice_id}",
      method: "patch",
      run: () =>
        patchRoute(
          new Request(`${BASE}/invoices/${invoiceId}`, {
            method: "PATCH",
            headers: { "api-key": key, "content-type": "text/plain" },
            body: '{"status":"expired"}',
          }),
          { params: Promise.resolve({ id: invoiceId }) },
        ),
    },
    {
      name: "patch, a method the path does not answer",
      path: "/invoices/{invoice_id}",
      method: "patch",
      run: () => call(deleteRoute, "DELETE", `/invoices/${invoiceId}`, { params: { id: invoiceId } }),
    },
    { name: "deliveries", path: "/webhook-deliveries", method: "get", run: () => call(deliveriesRoute, "GET", "/webhook-deliveries") },
    {
      name: "deliveries, unknown state",
      path: "/webhook-deliveries",
      method: "get",
      run: () => call(deliveriesRoute, "GET", "/webhook-deliveries?state=sent"),
    },
    {
      name: "redeliver, unknown",
      path: "/webhook-deliveries/{delivery_id}/redeliver",
      method: "post",
      run: () => call(redeliverRoute, "POST", "/webhook-deliveries/msg_nope/redeliver", { params: { delivery_id: "msg_nope" } }),
    },
    { name: "currencies", path: "/currencies", method: "get", run: () => call(currenciesRoute, "GET", "/currencies") },
    { name: "rates", path: "/rates", method: "get", run: () => call(ratesRoute, "GET", "/rates", { key: ratesKey }) },
    {
      name: "rates at a past instant",
      path: "/rates",
      method: "get",
      run: () => call(ratesRoute, "GET", "/rates?at=2025-03-01T12:34:56%2B01:00", { key: ratesAtKey }),
    },
    {
      name: "rates, at not a date",
      path: "/rates",
      method: "get",
      run: () => call(ratesRoute, "GET", "/rates?at=yesterday", { key: ratesAtKey }),
    },
    {
      name: "rates, over the limit",
      path: "/rates",
      method: "get",
      run: async () => {
        // The limit is 2 a minute; a new window may open between calls, so ask until refused (at most 5 times).
        let response = await call(ratesRoute, "GET", "/rates", { key: ratesKey });
        for (let i = 0; i < 5 && response.status !== 429; i++) response = await call(ratesRoute, "GET", "/rates", { key: ratesKey });
        expect(response.status).toBe(429);
        return response;
      },
    },
    {
      name: "archive in EUR",
      path: "/archived",
      method: "post",
      run: () =>
        call(archivedRoute, "POST", "/archived", {
          body: JSON.stringify({ order_id: `OA-${Date.now()}`, currency: "BTC", fiat_amount: 12.5 }),
        }),
    },
    {
      name: "archive in crypto",
      path: "/archived",
      method: "post",
      run: () =>
        call(archivedRoute, "POST", "/archived", {
          body: JSON.stringify({ order_id: `OB-${Date.now()}`, currency: "ETH", crypto_amount: 0.1, created_at: "2025-01-01" }),
        }),
    },
    {
      name: "archive, invalid",
      path: "/archived",
      method: "post",
      run: () => call(archivedRoute, "POST", "/archived", { body: JSON.stringify({ currency: "XYZ" }) }),
    },
    {
      name: "archive, not an object",
      path: "/archived",
      method: "post",
      run: () => call(archivedRoute, "POST", "/archived", { body: "[]" }),
    },
  ];

  it("every example in the document is valid against its own schema", () => {
    const checked: string[] = [];
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {}) as [string, { example?: unknown }][]) {
            if (media.example === undefined) continue;
            const pointer = `doc#/paths/${p.replaceAll("~", "~0").replaceAll("/", "~1")}/${method}/responses/${status}/content/${type.replace("/", "~1")}/schema`;
            const validate = ajv().getSchema(pointer)!;
            expect(validate(media.example), `${method} ${p} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
            checked.push(`${method} ${p} ${status}`);
          }
        }
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  });

  it("the check bites: an invoice without an id does not pass", () => {
    const validate = ajv().getSchema("doc#/components/schemas/Invoice")!;
    expect(validate({ order_id: "x" })).toBe(false);
  });

  it.each(cases)("$name", async ({ path: p, method, run }) => {
    const response = await run();
    const status = String(response.status);
    const documented = doc.paths[p][method].responses[status];
    expect(documented, `${method} ${p} documents ${status}`).toBeDefined();
    const type = response.headers.get("content-type")!.split(";")[0];
    expect(Object.keys(documented.content ?? {})).toContain(type);
    const pointer = `doc#/paths/${p.replaceAll("~", "~0").replaceAll("/", "~1")}/${method}/responses/${status}/content/${type.replace("/", "~1")}/schema`;
    const validate = ajv().getSchema(pointer)!;
    const body = await response.json();
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });
});
