import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A small invoicing provider for the search tests: a real HTTP server with GET /invoices (page, page_size,
 * sort_by created_at / updated_at, sort_order, created_after) over invoices the test inserts, changes and archives, a
 * switch that answers 429 with Retry-After, a hook run before each page is answered (a change racing the walk),
 * one that holds answers until calls are under way together, one that answers a status change in its place (a
 * refusal, a failure), and one that reads other forms of an id as an invoice's own. It records every request and
 * how many ran at once.
 */
export type ProviderInvoice = {
  invoice_id: string;
  order_id: string;
  order_name: string;
  status: string;
  fiat_amount: number;
  fiat_currency: string;
  crypto_amount: number;
  currency: string;
  created_at: string;
  updated_at: string;
};

export async function startSearchProvider() {
  const invoices = new Map<string, ProviderInvoice>();
  const requests: string[] = [];
  let clock = Date.parse("2026-06-01T00:00:00Z");
  let inFlight = 0;
  let maxInFlight = 0;
  const state = {
    limited: null as null | { retryAfter: string },
    /** Runs before a page of the list is answered. */
    beforePage: null as null | ((page: number, sortBy: string) => void),
    delayMs: 0,
    /**
     * Holds every answer until this many calls are under way at once (or a second has passed): how a test sees
     * calls made together as together, however slowly a loaded machine sends them.
     */
    gather: 0,
    /** A provider that does not filter the list by `created_after` (against the spec). */
    ignoresCreatedAfter: false,
    /** Answers a PATCH in its place (a refusal, a failure) when it returns an answer. */
    patchAnswer: null as null | ((id: string) => { status: number; body: unknown } | null),
    /** Runs before one invoice is answered (GET /invoices/{id}). */
    beforeInvoice: null as null | ((id: string) => void),
    /** The invoice's own id for an id as a path gave it (a provider that also takes a bare or upper-case form). */
    resolve: null as null | ((id: string) => string),
  };
  const ownId = (segment: string) => {
    const id = decodeURIComponent(segment);
    return state.resolve?.(id) ?? id;
  };
  const tick = () => new Date((clock += 1_000)).toISOString();
  let gathered: (() => void)[] = [];
  const gathering = () =>
    new Promise<void>((resolve) => {
      if (inFlight >= state.gather) {
        for (const release of gathered.splice(0)) release();
        resolve();
        return;
      }
      gathered.push(resolve);
      setTimeout(() => {
        gathered = gathered.filter((waiting) => waiting !== resolve);
        resolve();
      }, 1_000);
    });

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://provider");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const answer = () => {
      inFlight--;
      if (state.limited) {
        res
          .writeHead(429, { "content-type": "application/json", "retry-after": state.limited.retryAfter })
          .end(JSON.stringify({ message: "slow down" }));
        return;
      }
      const match = /^\/api\/v1\/invoices\/(.+)$/.exec(url.pathname);
      if (match && req.method === "PATCH") {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => {
          const id = ownId(match[1]);
          const answer = state.patchAnswer?.(id);
          if (answer) {
            res.writeHead(answer.status, { "content-type": "application/problem+json" }).end(JSON.stringify(answer.body));
            return;
          }
          if (invoices.has(id)) invoices.set(id, { ...invoices.get(id)!, status: JSON.parse(body).status, updated_at: tick() });
          res
            .writeHead(invoices.has(id) ? 200 : 404, { "content-type": "application/json" })
            .end(JSON.stringify(invoices.get(id) ?? { message: "not found" }));
        });
        return;
      }
      if (match) {
        state.beforeInvoice?.(ownId(match[1]));
        const invoice = invoices.get(ownId(match[1]));
        res.writeHead(invoice ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(invoice ?? { message: "not found" }));
        return;
      }
      const page = Number(url.searchParams.get("page") ?? 1);
      const size = Number(url.searchParams.get("page_size") ?? 20);
      const sortBy = (url.searchParams.get("sort_by") ?? "created_at") as "created_at" | "updated_at";
      const desc = (url.searchParams.get("sort_order") ?? "desc") === "desc";
      state.beforePage?.(page, sortBy);
      const createdAfter = state.ignoresCreatedAfter ? null : url.searchParams.get("created_after");
      const all = [...invoices.values()]
        .filter((invoice) => createdAfter === null || Date.parse(invoice.created_at) > Date.parse(createdAfter))
        .sort(
          (a, b) => (a[sortBy] === b[sortBy] ? a.invoice_id.localeCompare(b.invoice_id) : a[sortBy] < b[sortBy] ? -1 : 1) * (desc ? -1 : 1),
        );
      const items = all.slice((page - 1) * size, page * size);
      const totalPages = Math.ceil(all.length / size);
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          items,
          pagination: {
            current_page: page,
            page_size: size,
            total_pages: totalPages,
            total_records: all.length,
            has_next: page < totalPages,
            has_previous: page > 1,
          },
        }),
      );
    };
    void gathering().then(() => setTimeout(answer, state.delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    state,
    requests,
    invoices,
    maxInFlight: () => maxInFlight,
    /** Forgets the most calls seen at once (each test measures its own). */
    resetMaxInFlight: () => {
      maxInFlight = 0;
    },
    /** A new invoice, created and updated now (the provider's clock moves a second per change). */
    insert(fields: Partial<ProviderInvoice> & { invoice_id: string; order_id: string }): ProviderInvoice {
      const at = tick();
      const invoice = {
        order_name: "",
        status: "new",
        fiat_amount: 10,
        fiat_currency: "EUR",
        crypto_amount: 0.0002,
        currency: "BTC",
        created_at: at,
        updated_at: at,
        ...fields,
      };
      invoices.set(invoice.invoice_id, invoice);
      return invoice;
    },
    change(id: string, fields: Partial<ProviderInvoice>): void {
      const invoice = invoices.get(id);
      if (!invoice) throw new Error(`no invoice ${id}`);
      invoices.set(id, { ...invoice, ...fields, updated_at: tick() });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type SearchProvider = Awaited<ReturnType<typeof startSearchProvider>>;
