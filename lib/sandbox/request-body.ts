import "server-only";
import type { z } from "zod";
import { Problem } from "@/lib/contract/problem";
import { parseJsonBodyLossless } from "@/lib/platform/http-body";

/**
 * A sandbox request's JSON body: only `application/json` (any charset) is read, so a body sent as text or
 * without a type is a 415 rather than guessed at; then as every body (400 not JSON, 422 a broken rule).
 */
export async function readSandboxJsonBody<S extends z.ZodType>(request: Request, schema: S, example?: string): Promise<z.output<S>> {
  const mediaType = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw Problem.of("unsupported_media_type", {
      detail: `${mediaType ? `A body sent as ${mediaType}` : "A body without a Content-Type"} is not read: send it as application/json.`,
    });
  }
  return parseJsonBodyLossless(request, schema, example);
}
