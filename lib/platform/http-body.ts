import "server-only";
import type { z } from "zod";
import { searchParamsToObject } from "@/lib/contract";
import { parseJsonLossless } from "@/lib/contract/money-json";
import { parseJson } from "@/lib/contract/parse-json";
import { Problem } from "@/lib/contract/problem";

/** The request's query string read with a contract schema; a broken rule is a 422 naming each parameter. */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const parsed = schema.safeParse(searchParamsToObject(new URL(request.url).searchParams));
  if (!parsed.success) throw Problem.fromZod(parsed.error, "query");
  return parsed.data;
}

/**
 * A request's JSON body read with a contract schema: not JSON or not an object → 400 (ARCHITECTURE.md §3), a broken
 * rule → 422 naming each field. Both readers here serve the sandbox and the console's API alike.
 */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  example = '{"status": "cancelled"}',
): Promise<z.output<S>> {
  return readJsonBody(request, schema, example, parseJson);
}

/**
 * The same, but every number literal is kept as the text it was sent as (a `LosslessNumber`, lib/contract/money-json.ts),
 * so that an amount is read with exactly its digits: the sandbox reads every body with this. The
 * schema decides what a number literal may be; a duplicate key is not JSON here (a 400).
 */
export async function parseJsonBodyLossless<S extends z.ZodType>(
  request: Request,
  schema: S,
  example = '{"status": "cancelled"}',
): Promise<z.output<S>> {
  return readJsonBody(request, schema, example, parseJsonLossless);
}

/** JSON text as such a body (a server action's field that carries one): the same reading, the same problems. */
export function parseJsonTextLossless<S extends z.ZodType>(text: string, schema: S, example: string): z.output<S> {
  return readJsonText(text, schema, example, parseJsonLossless);
}

async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  example: string,
  parse: (text: string) => unknown,
): Promise<z.output<S>> {
  return readJsonText(await request.text(), schema, example, parse);
}

function readJsonText<S extends z.ZodType>(text: string, schema: S, example: string, parse: (text: string) => unknown): z.output<S> {
  let body: unknown;
  try {
    body = parse(text);
  } catch {
    throw badRequest("The body is not valid JSON.", example);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("The body must be a JSON object.", example);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw Problem.fromZod(parsed.error, "body");
  return parsed.data;
}

const badRequest = (detail: string, example: string) =>
  Problem.of("invalid_body", { title: "The request body cannot be read", detail: `${detail} Send ${example}, for example.` });
