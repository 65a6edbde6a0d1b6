/**
 * Public block explorers the console links to: a payment address or a transaction hash, per network (the
 * provider's `payment.network`) or, when the provider names none, per currency whose network is not in
 * doubt. A token that lives on several networks (USDT, USDC) gets a link only with its network; an unknown
 * network or currency gets none, never a guess.
 */
type Explorer = { name: string; address: (address: string) => string; tx: (hash: string) => string };

const explorer = (name: string, base: string, address: string, tx: string): Explorer => ({
  name,
  address: (a) => `${base}${address}${encodeURIComponent(a)}`,
  tx: (h) => `${base}${tx}${encodeURIComponent(h)}`,
});

const BY_NETWORK: Record<string, Explorer> = {
  bitcoin: explorer("mempool.space", "https://mempool.space", "/address/", "/tx/"),
  ethereum: explorer("etherscan.io", "https://etherscan.io", "/address/", "/tx/"),
  tron: explorer("tronscan.org", "https://tronscan.org", "/#/address/", "/#/transaction/"),
  litecoin: explorer("litecoinspace.org", "https://litecoinspace.org", "/address/", "/tx/"),
  solana: explorer("solscan.io", "https://solscan.io", "/account/", "/tx/"),
  dogecoin: explorer("dogechain.info", "https://dogechain.info", "/address/", "/tx/"),
};

/** Native coins: the currency says the network. */
const NETWORK_OF_CURRENCY: Record<string, string> = {
  BTC: "bitcoin",
  ETH: "ethereum",
  TRX: "tron",
  LTC: "litecoin",
  SOL: "solana",
  DOGE: "dogecoin",
};

/** Other spellings providers use for a network. */
const NETWORK_ALIASES: Record<string, string> = {
  btc: "bitcoin",
  eth: "ethereum",
  erc20: "ethereum",
  "erc-20": "ethereum",
  trc20: "tron",
  "trc-20": "tron",
  ltc: "litecoin",
  sol: "solana",
  doge: "dogecoin",
};

function explorerFor(currency: string | null | undefined, network: string | null | undefined): Explorer | null {
  const net = network?.trim().toLowerCase();
  if (net) return BY_NETWORK[NETWORK_ALIASES[net] ?? net] ?? null;
  const byCurrency = currency ? NETWORK_OF_CURRENCY[currency.trim().toUpperCase()] : undefined;
  return byCurrency ? BY_NETWORK[byCurrency] : null;
}

export type ExplorerLink = { href: string; explorer: string };

/** Where a payment address can be looked at in public, or null when the console knows no explorer for it. */
export function addressExplorerLink(
  address: string | null | undefined,
  currency: string | null | undefined,
  network?: string | null,
): ExplorerLink | null {
  const found = address?.trim() ? explorerFor(currency, network) : null;
  return found && address ? { href: found.address(address.trim()), explorer: found.name } : null;
}

/** Where a transaction can be looked at in public, or null when the console knows no explorer for it. */
export function transactionExplorerLink(
  hash: string | null | undefined,
  currency: string | null | undefined,
  network?: string | null,
): ExplorerLink | null {
  const found = hash?.trim() ? explorerFor(currency, network) : null;
  return found && hash ? { href: found.tx(hash.trim()), explorer: found.name } : null;
}
