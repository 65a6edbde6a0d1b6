import { describe, expect, it } from "vitest";
import { addressExplorerLink, transactionExplorerLink } from "./explorer";

describe("explorer links", () => {
  it("links an address per network, or per currency when the network goes without saying", () => {
    expect(addressExplorerLink("bc1qxyz", "BTC", "bitcoin")).toEqual({
      href: "https://mempool.space/address/bc1qxyz",
      explorer: "mempool.space",
    });
    expect(addressExplorerLink("bc1qxyz", "btc", null)).toEqual({
      href: "https://mempool.space/address/bc1qxyz",
      explorer: "mempool.space",
    });
    expect(addressExplorerLink("0xabc", "ETH")?.href).toBe("https://etherscan.io/address/0xabc");
    expect(addressExplorerLink("0xabc", "USDC", "ethereum")?.href).toBe("https://etherscan.io/address/0xabc");
    expect(addressExplorerLink("TQ1", "USDT", "tron")?.href).toBe("https://tronscan.org/#/address/TQ1");
    expect(addressExplorerLink("So1", "SOL", "solana")?.href).toBe("https://solscan.io/account/So1");
  });

  it("gives no link for an unknown currency or network, a token without its network, or no address", () => {
    expect(addressExplorerLink("X1", "XYZ", null)).toBeNull();
    expect(addressExplorerLink("X1", "BTC", "moonchain")).toBeNull();
    expect(addressExplorerLink("0xabc", "USDT", null)).toBeNull();
    expect(addressExplorerLink("", "BTC", "bitcoin")).toBeNull();
    expect(addressExplorerLink(null, "BTC", "bitcoin")).toBeNull();
  });

  it("links a transaction, and escapes what is not a plain hash", () => {
    expect(transactionExplorerLink("ab12", "LTC", "litecoin")).toEqual({
      href: "https://litecoinspace.org/tx/ab12",
      explorer: "litecoinspace.org",
    });
    expect(transactionExplorerLink("a/b?c", "DOGE", null)?.href).toBe("https://dogechain.info/tx/a%2Fb%3Fc");
    expect(transactionExplorerLink(null, "BTC", null)).toBeNull();
  });
});
