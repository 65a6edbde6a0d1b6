import "server-only";
import { currentRequestId } from "@/lib/platform/server-lifecycle";

/**
 * A problem answer with the request's id in its body (`request_id`, as in its X-Request-Id header and its log
 * lines), so a person who reports an error hands over the one thing that finds it. Other answers, and a problem
 * outside a request of the server layer (`next dev`, unit tests), are returned as they are.
 */
export async function withRequestId(response: Response): Promise<Response> {
  const id = currentRequestId();
  if (!id || !response.headers.get("content-type")?.includes("application/problem+json")) return response;
  const body = (await response.json()) as Record<string, unknown>;
  return new Response(JSON.stringify({ ...body, request_id: id }), { status: response.status, headers: response.headers });
}
