import "server-only";

/**
 * The cryptocurrencies the sandbox accepts. The market is simulated: `referencePriceEur` anchors the rates
 * the sandbox quotes, not a live price.
 */
export const SANDBOX_CURRENCIES = [
  {
    code: "BTC",
    name: "Bitcoin",
    network: "bitcoin",
    decimals: 8,
    referencePriceEur: 61_250,
    confirmationsRequired: 3,
    explorer: "https://mempool.space/tx/",
    sim: { share: 0.34, volatility: 0.22, addressPrefix: "bc1q", addressLength: 38, txPrefix: "", blockSeconds: 600, tipHeight: 925_400 },
  },
  {
    code: "ETH",
    name: "Ether",
    network: "ethereum",
    decimals: 18,
    referencePriceEur: 3_180,
    confirmationsRequired: 12,
    explorer: "https://etherscan.io/tx/",
    sim: { share: 0.18, volatility: 0.3, addressPrefix: "0x", addressLength: 40, txPrefix: "0x", blockSeconds: 12, tipHeight: 23_480_000 },
  },
  {
    code: "USDT",
    name: "Tether USD (TRC-20)",
    network: "tron",
    decimals: 6,
    referencePriceEur: 0.92,
    confirmationsRequired: 20,
    explorer: "https://tronscan.org/#/transaction/",
    sim: { share: 0.2, volatility: 0.01, addressPrefix: "T", addressLength: 33, txPrefix: "", blockSeconds: 3, tipHeight: 76_120_000 },
  },
  {
    code: "USDC",
    name: "USD Coin (ERC-20)",
    network: "ethereum",
    decimals: 6,
    referencePriceEur: 0.92,
    confirmationsRequired: 12,
    explorer: "https://etherscan.io/tx/",
    sim: { share: 0.1, volatility: 0.01, addressPrefix: "0x", addressLength: 40, txPrefix: "0x", blockSeconds: 12, tipHeight: 23_480_000 },
  },
  {
    code: "LTC",
    name: "Litecoin",
    network: "litecoin",
    decimals: 8,
    referencePriceEur: 78.4,
    confirmationsRequired: 6,
    explorer: "https://litecoinspace.org/tx/",
    sim: {
      share: 0.08,
      volatility: 0.25,
      addressPrefix: "ltc1q",
      addressLength: 38,
      txPrefix: "",
      blockSeconds: 150,
      tipHeight: 2_985_000,
    },
  },
  {
    code: "SOL",
    name: "Solana",
    network: "solana",
    decimals: 9,
    referencePriceEur: 142.7,
    confirmationsRequired: 1,
    explorer: "https://solscan.io/tx/",
    sim: { share: 0.06, volatility: 0.35, addressPrefix: "", addressLength: 44, txPrefix: "", blockSeconds: 0.4, tipHeight: 378_200_000 },
  },
  {
    code: "DOGE",
    name: "Dogecoin",
    network: "dogecoin",
    decimals: 8,
    referencePriceEur: 0.146,
    confirmationsRequired: 6,
    explorer: "https://dogechain.info/tx/",
    sim: { share: 0.04, volatility: 0.4, addressPrefix: "D", addressLength: 33, txPrefix: "", blockSeconds: 60, tipHeight: 5_940_000 },
  },
] as const;

export type SandboxCurrency = (typeof SANDBOX_CURRENCIES)[number];

const byCode = new Map<string, SandboxCurrency>(SANDBOX_CURRENCIES.map((c) => [c.code, c]));

export function findCurrency(code: string): SandboxCurrency | undefined {
  return byCode.get(code.toUpperCase());
}

export function explorerUrl(currency: string, txHash: string): string | null {
  const c = findCurrency(currency);
  return c ? `${c.explorer}${txHash}` : null;
}
