import "server-only";
import { Agent, type Dispatcher, interceptors, request as undiciRequest } from "undici";
import { parseJsonLossless } from "@/lib/contract/money-json";
import { internalRequestHeaders } from "@/lib/platform/server-lifecycle";

// How the upstream client reaches a provider: one HTTP request, its answer read once (./client.ts decides what
// to ask and what an answer means).

/** What the client reads of an answer: its status, its headers, and its body once. */
export type Answer = { status: number; headers: Headers; json: () => Promise<unknown>; text: () => Promise<string>; discard: () => void };
export type Sent = { method: Dispatcher.HttpMethod; body?: string; headers: Record<string, string>; signal: AbortSignal };

/** What a real provider may compress its answers with (the agent inflates them, error bodies included). */
export const COMPRESSED = { "accept-encoding": "gzip, deflate, br" };

/**
 * One pool of kept-alive connections per process (undici, Node.js's own HTTP client, without fetch's web
 * streams and Next.js's fetch instrumentation on every call). It never follows a redirect: that would carry
 * the Api-key header to wherever it points; a 3xx is an answer the client does not understand.
 */
const holder = globalThis as typeof globalThis & { __invoiceConsoleUpstreamAgent?: Dispatcher };
function agent(): Dispatcher {
  return (holder.__invoiceConsoleUpstreamAgent ??= new Agent().compose(interceptors.decompress({ skipErrorResponses: false })));
}

/** The most of one answer the console reads (a page of 100 invoices is about 200 KB), inflated: past it, the answer is refused. */
export const ANSWER_MAX_BYTES = 8 * 1_048_576;

/** An answer longer than ANSWER_MAX_BYTES: its reading stopped there, and its connection was let go. */
export class AnswerTooLarge extends Error {
  constructor() {
    super(`the answer is longer than ${ANSWER_MAX_BYTES / 1_048_576} MB`);
  }
}

/** The body as text, read as it arrives and given up past the limit, so no provider's answer fills the memory. */
async function readText(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > ANSWER_MAX_BYTES) {
      body.destroy();
      throw new AnswerTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

export async function send(url: string, sent: Sent): Promise<Answer> {
  const { statusCode, headers, body } = await undiciRequest(url, { ...sent, dispatcher: agent() });
  return {
    status: statusCode,
    // Read only by a refusal's handling: not built for every answer.
    get headers() {
      const read = new Headers();
      for (const [name, value] of Object.entries(headers))
        if (value !== undefined) read.set(name, Array.isArray(value) ? value.join(", ") : value);
      return read;
    },
    // Every answer is read losslessly (docs/operations.md, "Amounts are decimals"); a key given twice keeps its
    // last value, as JSON.parse does.
    json: async () => parseJsonLossless(await readText(body), { duplicateKeys: "last" }),
    text: () => readText(body),
    discard: () => void body.dump().catch(() => {}),
  };
}

/**
 * The embedded sandbox is this very process: its answers come back uncompressed, since gzip over loopback
 * only costs CPU twice (the sandbox compressing, this client inflating). A real provider's stay compressed.
 */
export function embeddedHeaders(): Record<string, string> {
  return { ...internalRequestHeaders(), "accept-encoding": "identity" };
}
