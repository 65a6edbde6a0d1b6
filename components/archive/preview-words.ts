/*
 * The archive form's words for the amount before any rate is known: the server draws them (and a browser
 * without script keeps them), and the preview (./archive-preview.ts) starts from them once it has loaded.
 */

/** How the form asks for the amount, naming the cryptocurrency once one is chosen. */
export const enterAmount = (currencyName?: string) => `Enter it in EUR or in ${currencyName ?? "the cryptocurrency"}`;

/** What happens to the other amount when no rate is shown: the provider derives it. */
export const derivedByProvider = (currencyName?: string) =>
  `${enterAmount(currencyName)}; the provider derives the other amount at the rate of the creation date and records the rate.`;
