import type { z } from "zod";
import { Problem } from "@/lib/problem";

/** GET a console API route and read its answer with a contract schema; failures arrive as a Problem. */
export async function fetchJson<S extends z.ZodType>(url: string, schema: S, init?: RequestInit): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch {
    throw Problem.of("network_error", {
      title: "The console cannot be reached",
      detail: "Check your connection and try again.",
    });
  }
  if (!response.ok) {
    const problem = await Problem.fromResponse(response);
    if (problem.status === 401 && typeof window !== "undefined") {
      // The session ended mid-work: sign in again and come back to exactly this view.
      window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
    throw problem;
  }
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw Problem.of("invalid_response", {
      title: "The console gave an answer this page does not understand",
      detail: "Reload the page; if it keeps happening, the console may have been updated mid-session.",
    });
  }
  return parsed.data;
}
