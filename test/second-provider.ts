import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LosslessNumber, stringify as stringifyLossless } from "lossless-json";

/** What readJson answers for a body that is not JSON. */
const MALFORMED = Symbol("malformed JSON");

/** A request's body read as JSON, or MALFORMED. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  try {
    let text = "";
    for await (const chunk of req) text += chunk;
    return JSON.parse(text);
  } catch {
    return MALFORMED;
  }
}

/*
 * A second invoicing provider for tests: a real HTTP server that speaks the spec (GET /invoices with every
 * filter, sort and page; GET and PATCH /invoices/{id}; /currencies) but makes a different legal choice from
 * the sandbox wherever the spec says "not shown":
 *
 * - ids: short (`inv_8Hq2x`), numeric (`48213`, sent as a JSON number), with a slash and a space, with a
 *   percent sign, bare UUIDs;
 * - timestamps without an offset, with `+00:00` / `+0000`, with fractions of 6 or 7 digits;
 * - amounts as strings ("12.50"), `null` for optional fields, statuses the console does not know, extra and
 *   nested fields, payment details under `payment_details` with other names, transactions at the top level;
 * - one invoice with odd values (an amount "n/a", a date "last tuesday");
 * - `/currencies` in the shape `settings.currencyStyle` names, errors in the shape `settings.errorStyle` names;
 * - one invoice (`inv_slow`) that answers after `settings.slowMs`, and not before `hold()`'s release;
 * - POST /webhooks/simulate answers `{ok, status: "queued", message}` and posts the event to
 *   `settings.webhookUrl` (when set) in its own scheme: `X-Shop-Signature: sha256=<hex HMAC>`, not Standard
 *   Webhooks; it offers no deliveries extension (404).
 *
 * Not a mock of the console's expectations: it has its own rules (a completed invoice cannot be cancelled,
 * unknown currencies are a 422) and answers them in its own words.
 *
 * - with `settings.exactAmounts`, one more invoice (`inv_exact`, EXACT_AMOUNTS) whose amounts are JSON number
 *   literals no float holds: 18 decimals of ETH, 1 wei, 15-digit euros (`100000000000000.01`);
 *
 * POST /archived, its way: order ids unique across its whole store ("Order SO-1001 has already been
 * recorded"), amounts as numbers or numeric strings, its own currencies, a created_at it reads like its
 * timestamps; a new archived invoice gets a numeric id and comes back with its amounts as strings and the
 * rate under `payment_details.exchange_rate`. Its refusals follow `settings.errorStyle` like every other.
 */

export const ERROR_STYLES = ["rfc9457", "fastapi", "detail-text", "field-map", "nested-error", "message", "plain-text"] as const;
export type ErrorStyle = (typeof ERROR_STYLES)[number];
export const CURRENCY_STYLES = ["codes", "objects", "keyed", "wrapped-currencies", "wrapped-data", "wrapped-items"] as const;
export type CurrencyStyle = (typeof CURRENCY_STYLES)[number];

export type ProviderSettings = {
  errorStyle: ErrorStyle;
  currencyStyle: CurrencyStyle;
  slowMs: number;
  webhookUrl: string | null;
  exactAmounts: boolean;
  /**
   * GET /rates?at=…: `honour` answers the rates of that minute with `at` (as the sandbox's extension does),
   * `ignore` answers the current rates without `at` (a provider that knows only the spec).
   */
  ratesAt: "honour" | "ignore";
};

/** This provider's historical rates: exact digits no float holds, so a lossy read shows. */
export const HISTORICAL_RATES = { ETH: "2310.42", BTC: "61234.123456789012345678" } as const;

/** The amounts of `inv_exact`, as the literal digits it writes on the wire (JSON numbers, never strings). */
export const EXACT_AMOUNTS = {
  fiat_amount: "100000000000000.01",
  crypto_amount: "0.123456789012345678",
  amount_due: "12345.123456789012345678",
  amount_paid: "0.000000000000000001",
  exchange_rate: "3180.10",
  tx_value: "0.000000000000000001",
} as const;

/** An invoice with amounts no float can hold, sent as JSON numbers (lossless-json writes their digits). */
function exactInvoice(): Stored {
  const n = (digits: string) => new LosslessNumber(digits);
  return {
    invoice_id: "inv_exact",
    order_id: "SO-EXACT",
    order_name: "Exact amounts",
    status: "completed",
    fiat_amount: n(EXACT_AMOUNTS.fiat_amount),
    fiat_currency: "EUR",
    crypto_amount: n(EXACT_AMOUNTS.crypto_amount),
    currency: "ETH",
    created_at: "2026-03-02T10:00:00Z",
    updated_at: "2026-03-02T10:05:00Z",
    payment_details: {
      wallet_address: "0x00000000000000000000000000000000000000ee",
      expected_amount: n(EXACT_AMOUNTS.amount_due),
      amount_paid: n(EXACT_AMOUNTS.amount_paid),
      exchange_rate: n(EXACT_AMOUNTS.exchange_rate),
    },
    transactions: [{ txid: "0xexact", value: n(EXACT_AMOUNTS.tx_value), block_number: 23_480_777 }],
  };
}

export type SecondProvider = {
  /** Base URL, ending in /api/v1. */
  url: string;
  key: string;
  settings: ProviderSettings;
  /** Every request that reached it: method, raw path and query. */
  requests: { method: string; url: string }[];
  /** The invoice as this provider stores (and sends) it. */
  invoice(id: string): Record<string, unknown> | undefined;
  /** Until the returned function is called, `inv_slow` does not answer (a call that keeps a slot busy). */
  hold(): () => void;
  /** Back to the seeded invoices and default settings. */
  reset(): void;
  close(): Promise<void>;
};

const SIX = ["new", "pending", "completed", "expired", "cancelled", "paid_partial"];
const CURRENCIES = [
  { code: "BTC", name: "Bitcoin", network: "bitcoin", decimals: 8, eur: 61_250 },
  { code: "ETH", name: "Ether", network: "ethereum", decimals: 18, eur: 3_180 },
  { code: "USDT", name: "Tether", network: "tron", decimals: 6, eur: 0.92 },
  { code: "LTC", name: "", network: null, decimals: null, eur: 78.4 },
];

type Stored = Record<string, unknown> & { invoice_id: string | number; status: string; created_at: string };

/** Timestamps in this provider's several forms, for one instant. */
function stamp(date: Date, form: number): string {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.678Z
  switch (form % 4) {
    case 0:
      return iso.slice(0, 19); // no offset: UTC by this provider's convention
    case 1:
      return `${iso.slice(0, 19)}.${iso.slice(20, 23)}456+00:00`;
    case 2:
      return `${iso.slice(0, 19)}.${iso.slice(20, 23)}4567Z`;
    default:
      return `${iso.slice(0, 19)}+0000`;
  }
}

function seed(): Map<string, Stored> {
  const invoices: Stored[] = [
    {
      invoice_id: "inv_8Hq2x",
      order_id: "SO-1001",
      order_name: null,
      status: "pending",
      fiat_amount: "12.50",
      fiat_currency: "EUR",
      crypto_amount: "0.00020408",
      currency: "BTC",
      allowed_error_percent: null,
      callback_url: null,
      created_at: "2026-03-01T09:15:00",
      updated_at: "2026-03-01T09:20:00.123456+00:00",
      payment_details: {
        wallet_address: "bc1qsecondprovider0000000000000000000abcd",
        chain: "bitcoin",
        amount_paid: "0.0001",
        exchange_rate: "61250.00",
        required_confirmations: 3,
        memo: "Thank you",
      },
      customer: { email: "ana@shop.example", country: "PT" },
      risk_score: 0.12,
    },
    {
      invoice_id: 48213,
      order_id: 99017,
      order_name: "Espresso machine",
      status: "on_hold",
      fiat_amount: 249,
      fiat_currency: "EUR",
      crypto_amount: "0.0783",
      currency: "ETH",
      created_at: "2026-02-14T08:00:00.1234567Z",
      updated_at: "2026-02-14T08:10:00+00:00",
      transactions: [
        {
          txid: "0xfeedbeef01",
          value: "0.0783",
          block_number: 23_480_001,
          timestamp: "2026-02-14T08:05:00+0000",
          explorer: "https://explorer.example/tx/0xfeedbeef01",
          fee: "0.0004",
        },
      ],
      payment_details: { wallet_address: "0x00000000000000000000000000000000000000aa", amount_paid: "0.0783", confirmations: "14" },
      metadata: { source: "pos", terminal: { id: 7, location: "Lisbon" } },
    },
    {
      invoice_id: "inv/2024 07",
      order_id: "SO-0707",
      order_name: "Id with a slash and a space",
      status: "completed",
      fiat_amount: "80.00",
      crypto_amount: 25.17,
      currency: "ETH",
      created_at: "2026-01-20T12:00:00",
      updated_at: "2026-01-20T12:30:00",
    },
    {
      invoice_id: "inv_odd",
      order_id: "SO-ODD",
      order_name: "Odd values",
      status: "new",
      fiat_amount: "n/a",
      crypto_amount: "0.5",
      currency: "LTC",
      created_at: "last tuesday",
      updated_at: "2026-02-01T00:00:00Z",
      expires_at: 1_767_225_600,
    },
    {
      invoice_id: "inv_slow",
      order_id: "SO-SLOW",
      order_name: "Slow to answer",
      status: "expired",
      fiat_amount: "5.00",
      crypto_amount: "5.43",
      currency: "USDT",
      created_at: "2026-01-05T10:00:00.5+00:00",
      updated_at: "2026-01-06T10:00:00.5+00:00",
    },
    {
      invoice_id: "6f1c1f9e-8b7a-4d2e-9c3b-2a1d0e9f8c7b",
      order_id: "SO-UUID",
      order_name: "Bare UUID id",
      status: "paid_partial",
      fiat_amount: 40,
      crypto_amount: 43.47,
      currency: "USDT",
      created_at: "2026-02-20T16:45:30.999999+00:00",
      updated_at: "2026-02-21T16:45:30.999999+00:00",
    },
    {
      // A percent sign in an id: encoded once on the way, decoded once on arrival, never twice.
      invoice_id: "pct%41 x",
      order_id: "SO-PCT",
      order_name: "Percent sign in the id",
      status: "new",
      fiat_amount: "1.00",
      crypto_amount: "1.09",
      currency: "USDT",
      created_at: "2026-01-03T00:00:00Z",
      updated_at: "2026-01-03T00:00:00Z",
    },
  ];
  // Filler, so that pages, filters and sorts have something to work on.
  for (let i = 0; i < 24; i++) {
    const currency = CURRENCIES[i % CURRENCIES.length];
    const created = new Date(Date.UTC(2026, 0, 2 + i * 3, 8 + (i % 10), (i * 7) % 60));
    const fiat = 10 + ((i * 37) % 500) + (i % 4) * 0.25;
    invoices.push({
      invoice_id: i % 3 === 0 ? 50_000 + i : `inv_${(1_000 + i * 97).toString(36)}`,
      order_id: `SO-${2000 + i}`,
      order_name: i % 5 === 0 ? null : `Order ${2000 + i}`,
      status: i === 7 ? "refunded" : SIX[i % SIX.length],
      fiat_amount: i % 2 ? fiat.toFixed(2) : fiat,
      crypto_amount: (fiat / currency.eur).toFixed(8),
      currency: currency.code,
      created_at: stamp(created, i),
      updated_at: stamp(new Date(created.getTime() + 3_600_000), i + 1),
      ...(i % 4 === 0 ? { tags: ["repeat-customer"], channel: "web" } : {}),
    });
  }
  return new Map(invoices.map((invoice) => [String(invoice.invoice_id), invoice]));
}

/** This provider's own reading of its timestamps (no offset = UTC); NaN for one it cannot read. */
function time(value: unknown): number {
  if (typeof value !== "string") return NaN;
  const withZone = /([zZ]|[+-]\d{2}:?\d{2})$/.test(value) ? value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2") : `${value}Z`;
  return Date.parse(withZone.replace(/(\.\d{3})\d+/, "$1"));
}

const amount = (value: unknown) => (typeof value === "number" ? value : Number.parseFloat(String(value)));

export async function startSecondProvider(options: { key?: string } = {}): Promise<SecondProvider> {
  const key = options.key ?? "sp_live_second_provider";
  const defaults: ProviderSettings = {
    errorStyle: "rfc9457",
    currencyStyle: "keyed",
    slowMs: 2_500,
    webhookUrl: null,
    exactAmounts: false,
    ratesAt: "honour",
  };
  const settings: ProviderSettings = { ...defaults };
  let invoices = seed();
  const requests: { method: string; url: string }[] = [];
  let held: Promise<void> = Promise.resolve();

  function send(res: ServerResponse, status: number, body: unknown, type = "application/json") {
    // lossless-json writes a LosslessNumber as its digits: the number literals of inv_exact reach the wire whole.
    res
      .writeHead(status, { "content-type": type })
      .end(typeof body === "string" && type.startsWith("text/") ? body : stringifyLossless(body));
  }

  /** A refusal in the shape of the current error style; `field` and `where` name what it is about. */
  function refuse(res: ServerResponse, status: number, message: string, field?: string, where: "body" | "query" = "body") {
    switch (settings.errorStyle) {
      case "rfc9457":
        return send(
          res,
          status,
          {
            type: `https://errors.second-provider.example/${status}`,
            title: status === 404 ? "Resource not found" : "Your request is not valid",
            status,
            detail: message,
            ...(field ? { errors: [{ detail: message, pointer: `#/${field}` }] } : {}),
          },
          "application/problem+json",
        );
      case "fastapi":
        return send(res, status, field ? { detail: [{ loc: [where, field], msg: message, type: "value_error" }] } : { detail: message });
      case "detail-text":
        return send(res, status, { detail: message });
      case "field-map":
        return send(res, status, field ? { errors: { [field]: [message] } } : { errors: [message] });
      case "nested-error":
        return send(res, status, { error: { type: "invalid_request_error", message, ...(field ? { param: field } : {}) } });
      case "message":
        return send(res, status, { message, status_code: status });
      case "plain-text":
        return send(res, status, message, "text/plain; charset=utf-8");
    }
  }

  function currencies(): unknown {
    const objects = CURRENCIES.map(({ code, name, network, decimals }) => ({ code, name: name || undefined, network, decimals }));
    switch (settings.currencyStyle) {
      case "codes":
        return CURRENCIES.map((c) => c.code);
      case "objects":
        return objects;
      case "keyed":
        return { BTC: { name: "Bitcoin", decimals: 8 }, ETH: "Ether", USDT: { network: "tron", decimals: 6 }, LTC: true };
      case "wrapped-currencies":
        return { currencies: CURRENCIES.map((c) => c.code) };
      case "wrapped-data":
        return { data: objects, meta: { count: objects.length } };
      case "wrapped-items":
        return { items: Object.fromEntries(CURRENCIES.map((c) => [c.code, { name: c.name || undefined, decimals: c.decimals }])) };
    }
  }

  /** Current rates as JSON numbers; with `at` honoured, the minute's own rates (HISTORICAL_RATES) and that minute. */
  function rates(res: ServerResponse, query: URLSearchParams) {
    const at = query.get("at");
    if (at === null || settings.ratesAt === "ignore")
      return send(res, 200, { rates: Object.fromEntries(CURRENCIES.map((c) => [c.code, c.eur])) });
    const time = Date.parse(at.length === 10 ? `${at}T00:00:00Z` : at);
    if (Number.isNaN(time)) return refuse(res, 422, "at must be an ISO 8601 date-time", "at", "query");
    const minute = new Date(time - (time % 60_000)).toISOString();
    return send(res, 200, {
      rates: Object.fromEntries(Object.entries(HISTORICAL_RATES).map(([code, rate]) => [code, new LosslessNumber(rate)])),
      at: minute,
    });
  }

  function list(res: ServerResponse, query: URLSearchParams) {
    const status = query.get("status");
    const currency = query.get("currency");
    if (currency && !CURRENCIES.some((c) => c.code === currency.toUpperCase())) {
      return refuse(res, 422, `Unsupported currency: ${currency}`, "currency", "query");
    }
    const after = query.get("created_after") ? time(query.get("created_after")) : null;
    const before = query.get("created_before") ? time(query.get("created_before")) : null;
    const page = Number(query.get("page") ?? 1);
    const size = Number(query.get("page_size") ?? 20);
    if (!(size >= 1 && size <= 100)) return refuse(res, 422, "page_size must be between 1 and 100", "page_size", "query");
    const sortBy = query.get("sort_by") ?? "created_at";
    const desc = (query.get("sort_order") ?? "desc") === "desc";

    const stored = settings.exactAmounts ? [...invoices.values(), exactInvoice()] : [...invoices.values()];
    const rows = stored.filter(
      (i) =>
        (!status || i.status === status) &&
        (!currency || String(i.currency).toUpperCase() === currency.toUpperCase()) &&
        (after === null || time(i.created_at) > after) &&
        (before === null || time(i.created_at) < before),
    );
    const value = (i: Stored) => (sortBy === "fiat_amount" || sortBy === "crypto_amount" ? amount(i[sortBy]) : time(i[sortBy]));
    rows.sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      // Values it cannot read sort last either way; ties by id.
      if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
      const byValue = Number.isNaN(x) ? 0 : desc ? y - x : x - y;
      return byValue || String(a.invoice_id).localeCompare(String(b.invoice_id));
    });
    const totalPages = Math.max(1, Math.ceil(rows.length / size));
    send(res, 200, {
      items: rows.slice((page - 1) * size, page * size),
      pagination: {
        current_page: page,
        page_size: size,
        total_pages: totalPages,
        total_records: String(rows.length),
        has_next: page < totalPages,
        has_previous: page > 1,
      },
      links: { self: `/api/v1/invoices?page=${page}` },
    });
  }

  async function simulate(req: IncomingMessage, res: ServerResponse) {
    const read = await readJson(req);
    if (read === MALFORMED) return refuse(res, 400, "Malformed JSON");
    const body = read as { invoice_id?: unknown; status?: unknown } | null;
    if (body?.invoice_id === undefined) return refuse(res, 422, "invoice_id is required", "invoice_id");
    if (typeof body.status !== "string" || !SIX.includes(body.status)) return refuse(res, 422, "Unknown status", "status");
    const invoice = invoices.get(String(body.invoice_id));
    if (!invoice) return refuse(res, 404, `No invoice ${String(body.invoice_id)}`);
    if (settings.webhookUrl) {
      const event = JSON.stringify({ event: "invoice.updated", test: true, invoice_id: invoice.invoice_id, new_status: body.status });
      const signature = createHmac("sha256", "shop-secret").update(event).digest("hex");
      await fetch(settings.webhookUrl, {
        method: "POST",
        body: event,
        headers: { "content-type": "application/json", "x-shop-signature": `sha256=${signature}` },
      }).catch(() => {});
    }
    return send(res, 200, { ok: true, status: "queued", message: "Test event queued for delivery." });
  }

  let nextArchivedId = 70_001;

  async function archive(req: IncomingMessage, res: ServerResponse) {
    const body = (await readJson(req)) as Record<string, unknown>;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return refuse(res, 400, "Request body must be a JSON object");
    const orderId = typeof body.order_id === "string" || typeof body.order_id === "number" ? String(body.order_id).trim() : "";
    if (!orderId) return refuse(res, 422, "Order reference can't be blank", "order_id");
    if ([...invoices.values()].some((i) => String(i.order_id) === orderId)) {
      return refuse(res, 422, `Order ${orderId} has already been recorded`, "order_id");
    }
    const currency = CURRENCIES.find((c) => c.code === String(body.currency ?? "").toUpperCase());
    if (!currency) return refuse(res, 422, `We don't handle ${String(body.currency ?? "that coin")}`, "currency");
    const fiat = body.fiat_amount == null ? null : amount(body.fiat_amount);
    const crypto = body.crypto_amount == null ? null : amount(body.crypto_amount);
    if ((fiat === null) === (crypto === null))
      return refuse(res, 422, "Send exactly one amount", fiat === null ? "fiat_amount" : "crypto_amount");
    if ((fiat !== null && !(fiat >= 0)) || (crypto !== null && !(crypto >= 0))) {
      return refuse(res, 422, "Amounts cannot be negative", fiat !== null ? "fiat_amount" : "crypto_amount");
    }
    const created =
      body.created_at == null ? Date.now() : time(String(body.created_at).length === 10 ? `${body.created_at}T00:00:00Z` : body.created_at);
    if (Number.isNaN(created)) return refuse(res, 422, "Unreadable date", "created_at");
    if (created > Date.now() + 5_000) return refuse(res, 422, "Date lies in the future", "created_at");
    const invoice: Stored = {
      invoice_id: nextArchivedId++,
      order_id: orderId,
      order_name: body.order_name ?? null,
      status: "archived",
      fiat_amount: (fiat ?? crypto! * currency.eur).toFixed(2),
      fiat_currency: "EUR",
      crypto_amount: (crypto ?? fiat! / currency.eur).toFixed(8),
      currency: currency.code,
      allowed_error_percent: body.allowed_error_percent ?? 3,
      callback_url: body.callback_url ?? null,
      created_at: stamp(new Date(created), 1),
      updated_at: stamp(new Date(), 1),
      payment_details: { exchange_rate: String(currency.eur) },
    };
    invoices.set(String(invoice.invoice_id), invoice);
    return send(res, 201, invoice);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    requests.push({ method: req.method ?? "GET", url: req.url ?? "" });
    const url = new URL(req.url ?? "/", "http://provider.test");
    if (req.headers["api-key"] !== key) return send(res, 401, "Unauthorized", "text/plain");
    if (!url.pathname.startsWith("/api/v1/")) return send(res, 404, "Not Found", "text/plain");
    const path = url.pathname.slice("/api/v1".length);

    if (path === "/currencies" && req.method === "GET") return send(res, 200, currencies());
    if (path === "/rates" && req.method === "GET") return rates(res, url.searchParams);
    if (path === "/invoices" && req.method === "GET") return list(res, url.searchParams);
    if (path === "/archived" && req.method === "POST") return archive(req, res);
    if (path === "/webhooks/simulate" && req.method === "POST") return simulate(req, res);

    const match = /^\/invoices\/([^/]+)$/.exec(path);
    if (!match) return send(res, 404, "Not Found", "text/plain");
    const id = decodeURIComponent(match[1]);
    const invoice = id === "inv_exact" && settings.exactAmounts ? exactInvoice() : invoices.get(id);
    if (!invoice) return refuse(res, 404, `No invoice ${id}`);
    if (id === "inv_slow") await Promise.all([new Promise((resolve) => setTimeout(resolve, settings.slowMs)), held]);

    if (req.method === "GET") return send(res, 200, invoice);
    if (req.method === "PATCH") {
      const body = await readJson(req);
      if (body === MALFORMED) return refuse(res, 400, "Malformed JSON");
      const next = (body as { status?: unknown })?.status;
      if (typeof next !== "string" || !SIX.includes(next)) return refuse(res, 422, "Unknown status", "status");
      if (invoice.status === "completed" && next === "cancelled") {
        return refuse(res, 422, "A completed invoice cannot be cancelled; refund it instead", "status");
      }
      invoice.status = next;
      invoice.updated_at = stamp(new Date(), 1);
      return send(res, 200, invoice);
    }
    return send(res, 405, "Method Not Allowed", "text/plain");
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, String(error), "text/plain"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    key,
    settings,
    requests,
    invoice: (id) => invoices.get(id),
    hold() {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return release;
    },
    reset() {
      invoices = seed();
      Object.assign(settings, defaults);
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
