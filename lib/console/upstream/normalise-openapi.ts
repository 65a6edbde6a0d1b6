import "server-only";
import { stringifyJson } from "@/lib/contract/money-json";

/** What the API reference page reads of a provider's OpenAPI document: the version, its info and its paths. */
export type ProviderOpenApi = { openapi: string; info: { title: string; version: string }; paths: Record<string, unknown> } & Record<
  string,
  unknown
>;

/**
 * A provider's OpenAPI document, or null when the answer is not one. Read losslessly like every answer; a
 * document is shown, never computed with, so its numbers (examples, limits) become plain JSON numbers again.
 */
export function normaliseOpenApi(raw: unknown): ProviderOpenApi | null {
  const plain: unknown = JSON.parse(stringifyJson(raw));
  if (typeof plain !== "object" || plain === null || Array.isArray(plain)) return null;
  const document = plain as Record<string, unknown>;
  const info = document.info as Record<string, unknown> | undefined;
  if (typeof document.openapi !== "string" || !/^3\./.test(document.openapi)) return null;
  if (typeof info !== "object" || info === null || typeof info.title !== "string" || typeof info.version !== "string") return null;
  if (typeof document.paths !== "object" || document.paths === null || Array.isArray(document.paths)) return null;
  return document as ProviderOpenApi;
}
