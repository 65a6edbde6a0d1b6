import "server-only";
import { stringifyJson } from "@/lib/contract/money-json";
import { parseJson } from "@/lib/contract/parse-json";

/** What the API reference page reads of a provider's OpenAPI document: the version, its info and its paths. */
export type ProviderOpenApi = { openapi: string; info: { title: string; version: string }; paths: Record<string, unknown> } & Record<
  string,
  unknown
>;

/**
 * A provider's OpenAPI document, or null when the answer is not one. Read losslessly like every answer; a
 * document is shown, never computed with, so its numbers (examples, limits) become plain JSON numbers again.
 * What the reference reads of it is held to the shapes OpenAPI gives them, and a part in another shape (a path
 * that is null, parameters that are no list) is left out, so one odd part never takes the page down; a
 * well-formed document passes unchanged.
 */
export function normaliseOpenApi(raw: unknown): ProviderOpenApi | null {
  const plain: unknown = parseJson(stringifyJson(raw));
  if (!isObject(plain)) return null;
  if (typeof plain.openapi !== "string" || !/^3\./.test(plain.openapi)) return null;
  const document = documentShape(plain);
  if (!document || !isObject(document.info) || !isObject(document.paths)) return null;
  return document as ProviderOpenApi;
}

type Json = Record<string, unknown>;
/** A rule for one value: what is kept of it, or undefined to leave it out. */
type Rule = (value: unknown) => unknown;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const string: Rule = (value) => (typeof value === "string" ? value : undefined);
const boolean: Rule = (value) => (typeof value === "boolean" ? value : undefined);
/** Any object, kept whole: a schema or a security scheme, which the reference reads defensively or shows as JSON. */
const object: Rule = (value) => (isObject(value) ? value : undefined);
const anything: Rule = (value) => value;

const list =
  (item: Rule): Rule =>
  (value) =>
    Array.isArray(value) ? value.map(item).filter((kept) => kept !== undefined) : undefined;

const record =
  (item: Rule): Rule =>
  (value) =>
    isObject(value) ? Object.fromEntries(Object.entries(value).flatMap(([key, entry]) => keptEntry(key, item(entry)))) : undefined;

const keptEntry = (key: string, kept: unknown): [string, unknown][] => (kept === undefined ? [] : [[key, kept]]);

/** An object whose named fields follow their rules (the others kept as they are); `required` must survive them. */
const shape =
  (rules: Record<string, Rule>, required: string[] = []): Rule =>
  (value) => {
    if (!isObject(value)) return undefined;
    const kept: Json = { ...value };
    for (const [key, rule] of Object.entries(rules)) {
      if (!(key in kept)) continue;
      const result = rule(kept[key]);
      if (result === undefined) delete kept[key];
      else kept[key] = result;
    }
    return required.every((key) => key in kept) ? kept : undefined;
  };

const content = record(shape({ schema: object }));

const operation = shape({
  tags: list(string),
  operationId: string,
  summary: string,
  description: string,
  parameters: list(shape({ name: string, in: string, required: boolean, description: string, schema: object }, ["name", "in"])),
  requestBody: shape({ required: boolean, description: string, content }),
  responses: record(shape({ description: string, headers: record(object), content })),
  security: list(anything),
});

const documentShape = shape({
  info: shape({ title: string, version: string, description: string }, ["title", "version"]),
  servers: list(shape({ url: string, description: string }, ["url"])),
  tags: list(shape({ name: string, description: string }, ["name"])),
  paths: record(shape(Object.fromEntries(["get", "post", "put", "patch", "delete"].map((method) => [method, operation])))),
  components: shape({ schemas: record(object), headers: record(object), securitySchemes: record(object) }),
}) as (value: unknown) => Json | undefined;
