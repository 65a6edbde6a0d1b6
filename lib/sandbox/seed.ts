import "server-only";
import { sql } from "drizzle-orm";
import { type Db, VACUUM_INVOICE_LISTS } from "@/lib/platform/db";
import { SANDBOX_DEMO_WEBHOOK_SECRET } from "@/lib/platform/env";
import { apiKeys, merchants } from "@/lib/sandbox/schema";
import { CONSOLE_INBOX_MARKER } from "./callback-url";
import { SANDBOX_CURRENCIES } from "./currencies";
import { CONSOLE_KEY_NAME, DEMO_KEYS, DEMO_MERCHANT_ID, hashKey, OTHER_MERCHANT_ID, SCOPES } from "./keys";
import { MARKET_CURRENCIES } from "./market";
import { marketMinuteSql, marketRateUnitsSql, rateFromUnitsSql } from "./market-sql";
import { deriveCryptoSql, quoteDecimals } from "./pricing";
import { seedDeliveries } from "./seed-deliveries";

export const DEMO_WEBHOOK_SECRET = SANDBOX_DEMO_WEBHOOK_SECRET;
export const DEMO_INVOICE_COUNT = 2_400;
const OTHER_MERCHANT_INVOICE_COUNT = 60;

/**
 * First start of the sandbox: the demo merchants, their well-known keys and a year of invoices. Runs in one
 * transaction and only when the demo merchant does not exist yet, so a restart never re-seeds and several
 * instances starting together seed once.
 */
export async function ensureSeeded(db: Db, invoiceCount = DEMO_INVOICE_COUNT): Promise<boolean> {
  const seeded = await db.transaction(async (tx) => {
    // A seed of a million invoices takes minutes: like migrations, it is not held to DATABASE_STATEMENT_TIMEOUT_MS.
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`select pg_advisory_xact_lock(7340102)`);
    const inserted = await tx
      .insert(merchants)
      .values([
        { id: DEMO_MERCHANT_ID, name: "Northwind Outfitters", webhookSecret: DEMO_WEBHOOK_SECRET },
        { id: OTHER_MERCHANT_ID, name: "Contoso Coffee Roasters", webhookSecret: "whsec_b3RoZXItbWVyY2hhbnQtc2VjcmV0" },
      ])
      .onConflictDoNothing()
      .returning({ id: merchants.id });
    if (inserted.length === 0) return false;
    await tx
      .insert(apiKeys)
      .values(
        DEMO_KEYS.map((k) => ({
          merchantId: k.merchantId,
          name: k.name,
          keyHash: hashKey(k.key),
          keyPrefix: k.key.slice(0, 12),
          scopes: k.scopes,
        })),
      )
      .onConflictDoNothing();
    // The demo merchant's webhooks go to the console's own inbox, so a new user sees them arrive.
    await seedInvoices(tx as unknown as Db, {
      merchantId: DEMO_MERCHANT_ID,
      count: invoiceCount,
      seed: 0.42,
      callbackUrl: CONSOLE_INBOX_MARKER,
    });
    await seedDeliveries(tx as unknown as Db, DEMO_MERCHANT_ID);
    await seedInvoices(tx as unknown as Db, { merchantId: OTHER_MERCHANT_ID, count: OTHER_MERCHANT_INVOICE_COUNT, seed: 0.17 });
    return true;
  });
  // Marks the new pages all-visible, so that GET /invoices walks deep offsets in its indexes alone without
  // visiting the table (PGlite has no autovacuum to do it; on PostgreSQL it would come minutes later).
  if (seeded) await db.execute(sql.raw(VACUUM_INVOICE_LISTS));
  return seeded;
}

/**
 * The console's own key (lib/platform/embedded-sandbox-key.ts), registered like the demo keys — for the demo merchant,
 * every scope — but secret, so that its calls have a rate-limit bucket nobody else can spend. On every start,
 * not only the first: a database seeded before the key existed gets it too. Idempotent across instances.
 */
export async function ensureConsoleKey(db: Db, key: string): Promise<void> {
  await db
    .insert(apiKeys)
    .values({
      merchantId: DEMO_MERCHANT_ID,
      name: CONSOLE_KEY_NAME,
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, 12),
      scopes: [...SCOPES],
    })
    .onConflictDoNothing();
}

const PRODUCTS = [
  "Merino Wool Sweater",
  "Trail Running Shoes",
  "Waterproof Shell Jacket",
  "Down Sleeping Bag -10°C",
  "Ultralight Tent 2P",
  "Titanium Camping Mug",
  "Carbon Trekking Poles",
  "Insulated Water Bottle 1L",
  "Headlamp 900 lm",
  "Hiking Backpack 45L",
  "Alpaca Beanie",
  "Gore-Tex Gloves",
  "Thermal Base Layer Set",
  "Climbing Harness",
  "Dynamic Rope 60 m",
  "Bouldering Crash Pad",
  "Espresso Grinder Pro",
  "Pour-Over Kettle",
  "Single-Origin Coffee 1 kg",
  "Cast Iron Skillet 28 cm",
  "Canvas Weekender Bag",
  "Leather Card Holder",
  "Mechanical Keyboard",
  '4K Monitor 27"',
  "Noise-Cancelling Headphones",
  "E-Bike Service",
  "Road Bike Tune-Up",
  "Gift Card",
  "Annual Membership",
  "Workshop Ticket: Winter Navigation",
  "Avalanche Transceiver",
  "Ski Touring Skins",
  "Snowshoes",
  "Wool Socks 3-Pack",
  "Repair Kit",
];
const VARIANTS = [
  "",
  "",
  "",
  " (S)",
  " (M)",
  " (L)",
  " (XL)",
  " — Slate",
  " — Forest Green",
  " — Sand",
  " ×2",
  " ×3",
  " + Express Shipping",
];

const textArray = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/**
 * Inserts `count` realistic invoices for one merchant in two set-based statements: statuses by a real-world
 * mix, amounts log-normally spread, each priced at the simulated market's rate of its creation minute (as
 * POST /archived prices one: the same rate, the same rounding), payment details and a transaction on
 * everything that was (partly) paid. `seed` makes the data the same from run to run.
 */
export async function seedInvoices(
  db: Db,
  opts: { merchantId: string; count: number; seed: number; now?: Date; callbackUrl?: string },
): Promise<void> {
  const callbackUrl = opts.callbackUrl ?? "https://shop.example.com/api/payments/webhook";
  const now = (opts.now ?? new Date()).toISOString();
  let cumulative = 0;
  const catalog = sql.join(
    SANDBOX_CURRENCIES.map((c, i) => {
      const lower = cumulative;
      cumulative += c.sim.share;
      const market = MARKET_CURRENCIES[i];
      const places = quoteDecimals(c);
      return sql`(${c.code}, ${c.network}, ${places}::int, ${(10n ** BigInt(places)).toString()}::numeric, ${places ? `0.${"0".repeat(places - 1)}1` : "1"}::numeric,
        ${market.salt.toString()}::bigint, ${market.referenceUnits.toString()}::numeric, ${market.volatilityPerMille.toString()}::bigint,
        ${c.confirmationsRequired}::int, ${c.sim.addressPrefix}, ${c.sim.addressLength}::int, ${c.sim.txPrefix},
        ${c.sim.blockSeconds}::float8, ${c.sim.tipHeight}::bigint, ${lower}::float8, ${cumulative}::float8)`;
    }),
    sql`, `,
  );
  // The market's rate of each invoice's creation minute (lib/sandbox/market-sql.ts), and the crypto amount the
  // sandbox's one pricing rule derives from the EUR amount at it (lib/sandbox/pricing.ts), as POST /archived does.
  const rateUnits = marketRateUnitsSql(
    { salt: sql`t.salt`, referenceUnits: sql`t.reference_units`, volatilityPerMille: sql`t.volatility_milli` },
    sql`mm.minute`,
  );
  const cryptoAmount = deriveCryptoSql(sql`p.fiat_amount`, sql`p.rate_units`, { unit: sql`p.quote_unit`, step: sql`p.quote_step` });

  await db.execute(sql`select setseed(${opts.seed})`);
  await db.execute(sql`
    with catalog (code, network, decimals, quote_unit, quote_step, salt, reference_units, volatility_milli, required, addr_prefix, addr_len, tx_prefix, block_seconds, tip_height, lo, hi) as (
      values ${catalog}
    ),
    draw as (
      select n, random() as r_status, random() as r_currency, random() as r_age, random() as r_amount, random() as r_cents,
             random() as r_pay, random() as r_confirm, random() as r_later, random() as r_other
      from generate_series(1, ${opts.count}::int) as n
    ),
    shaped as (
      select d.*, c.*,
        -- A year of business: most invoices settled long ago; only the last day's can still be new or pending.
        case when r_status < .62 then 'completed' when r_status < .78 then 'expired' when r_status < .85 then 'cancelled'
             when r_status < .90 then 'paid_partial' when r_status < .905 then 'pending' when r_status < .91 then 'new'
             else 'archived' end as status
      from draw d join catalog c on d.r_currency * ${cumulative}::float8 >= c.lo and d.r_currency * ${cumulative}::float8 < c.hi
    ),
    -- Instants are stored to the millisecond, as the API answers them: a created_at read from an
    -- answer and sent back as created_after/created_before then means exactly that invoice's instant.
    timed as (
      select s.*,
        date_trunc('milliseconds', ${now}::timestamptz - case
          when status in ('new', 'pending') then r_age * interval '20 hours'
          when status = 'archived' then interval '30 days' + r_age * interval '330 days'
          -- Paid or voided within the hour is everyday business; expiring takes the full day's window.
          when status in ('completed', 'cancelled') then interval '40 minutes' + power(r_age, 1.4) * interval '364 days'
          else interval '1 day 2 hours' + power(r_age, 1.4) * interval '363 days' end) as created_at
      from shaped s
    ),
    -- The market's rate worked out once per invoice: each "offset 0" keeps a subquery from being inlined into
    -- every expression that uses its column (the minute is used a dozen times, the rate three).
    minuted as (
      select t.*, m.rate_units
      from timed t
      cross join lateral (select ${rateUnits} as rate_units from (select ${marketMinuteSql(sql`t.created_at`)} as minute offset 0) as mm offset 0) as m
    ),
    priced as (
      select t.*,
        case when r_cents < .45 then floor(exp(2.6 + r_amount * r_amount * 6.4)) + 0.99
             when r_cents < .8 then round(exp(2.6 + r_amount * r_amount * 6.4))
             else round(exp(2.6 + r_amount * r_amount * 6.4)::numeric, 2) end::numeric(18, 2) as fiat_amount,
        case when status in ('completed', 'paid_partial', 'pending')
             then date_trunc('milliseconds', least(t.created_at + (2 + r_pay * 50) * interval '1 minute', ${now}::timestamptz)) end as paid_at,
        encode(sha256(convert_to(${opts.merchantId}::text || n || r_pay, 'UTF8')), 'hex') as hex
      from minuted t
    ),
    numbered as (
      select p.*, ${rateFromUnitsSql(sql`p.rate_units`)} as rate, ${cryptoAmount} as crypto_amount,
             row_number() over (order by p.created_at, p.n) as seq
      from priced p
    )
    insert into sandbox.invoices (id, merchant_id, order_id, order_name, status, fiat_amount, fiat_currency, crypto_amount, currency,
      allowed_error_percent, callback_url, created_at, updated_at, expires_at, payment_address, amount_received, rate, priced_in, paid_at,
      confirmations, confirmations_required)
    select
      -- UUID v7: the creation time in the first 48 bits, then random bits with the version set to 7.
      encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
        placing substring(int8send(floor(extract(epoch from created_at) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid,
      ${opts.merchantId}::uuid,
      'ORD-' || to_char(created_at at time zone 'UTC', 'YYMM') || '-' || lpad(seq::text, 6, '0'),
      (${textArray(PRODUCTS)})[1 + floor(r_other * ${PRODUCTS.length})::int] || (${textArray(VARIANTS)})[1 + floor(r_later * ${VARIANTS.length})::int],
      status,
      fiat_amount,
      'EUR',
      crypto_amount,
      code,
      case when r_confirm < .7 then 1 when r_confirm < .85 then 0 when r_confirm < .95 then 2 else 5 end,
      case when status <> 'archived' and r_later < .85 then ${callbackUrl} end,
      created_at,
      date_trunc('milliseconds', case status
        when 'new' then created_at
        when 'pending' then paid_at
        when 'completed' then least(paid_at + required * block_seconds * (1 + r_later) * interval '1 second', ${now}::timestamptz)
        when 'cancelled' then least(created_at + r_later * interval '20 hours', ${now}::timestamptz)
        when 'archived' then created_at
        else created_at + interval '1 day' end),
      case when status <> 'archived' then created_at + interval '1 day' end,
      case when status <> 'archived' then
        case when network = 'ethereum' then '0x' || substr(hex, 1, 40)
             else addr_prefix || substr(translate(hex || reverse(hex), '01', 'pq'), 1, addr_len) end end,
      case status
        when 'completed' then crypto_amount
        when 'pending' then crypto_amount
        when 'paid_partial' then round(crypto_amount * (0.25 + r_pay * 0.6)::numeric, decimals)
        when 'archived' then null
        else 0 end,
      -- Every invoice records its rate; an archived one was priced in EUR, as POST /archived records it.
      rate,
      case when status = 'archived' then 'fiat' end,
      paid_at,
      case status
        when 'completed' then required + least(floor(extract(epoch from ${now}::timestamptz - paid_at) / block_seconds), 50000)::int
        when 'paid_partial' then required + least(floor(extract(epoch from ${now}::timestamptz - paid_at) / block_seconds), 50000)::int
        when 'pending' then floor(r_confirm * required)::int
        when 'archived' then null
        else 0 end,
      case when status <> 'archived' then required end
    from numbered
  `);

  await db.execute(sql`
    with catalog (code, tx_prefix, block_seconds, tip_height) as (
      values ${sql.join(
        SANDBOX_CURRENCIES.map((c) => sql`(${c.code}, ${c.sim.txPrefix}, ${c.sim.blockSeconds}::float8, ${c.sim.tipHeight}::bigint)`),
        sql`, `,
      )}
    )
    insert into sandbox.transactions (invoice_id, tx_hash, amount, confirmations, block_height, seen_at)
    select i.id,
      c.tx_prefix || encode(sha256(convert_to(i.id::text, 'UTF8')), 'hex'),
      i.amount_received,
      i.confirmations,
      case when i.confirmations > 0 then c.tip_height - floor(extract(epoch from ${now}::timestamptz - i.paid_at) / c.block_seconds)::bigint end,
      i.paid_at
    from sandbox.invoices i join catalog c on c.code = i.currency
    where i.merchant_id = ${opts.merchantId}::uuid and i.status in ('completed', 'paid_partial', 'pending')
  `);
  // Fresh statistics, or the planner guesses a few hundred rows and pages deep in the list by sorting the
  // whole table instead of walking an index (PGlite never runs autovacuum to fix that on its own).
  await db.execute(sql`analyze sandbox.invoices, sandbox.transactions`);
}
