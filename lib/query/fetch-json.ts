import type { z } from "zod";
import { Problem } from "@/lib/problem";

/** GET a console API route and read its answer with a contract schema; failures arrive as a Problem. */
export async function fetchJson<S extends z.ZodType>(url: string, schema: S, init?: RequestInit): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch {
    throw new Problem({
      status: 0,
      code: "network_error",
      title: "The console cannot be reached",
      detail: "Check your connection and try again.",
    });
  }
  if (!response.ok) throw await Problem.fromResponse(response);
  return schema.parse(await response.json());
}
