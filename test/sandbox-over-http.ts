import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * Tests only: the sandbox's own route handlers (app/sandbox/api/v1) behind a real HTTP server, a provider the
 * console's upstream client reaches over the network. Every call is made with `key()` (a test merchant's from
 * test/sandbox-fixtures.ts), whatever key the console sent. Anything posted under /hooks/ is answered 200: a
 * receiver for the callback URLs webhooks are delivered to.
 */
const ROUTES: [RegExp, string, string?][] = [
  [/^\/api\/v1\/invoices$/, "invoices"],
  [/^\/api\/v1\/invoices\/([^/]+)$/, "invoices/[id]"],
  [/^\/api\/v1\/invoices\/([^/]+)\/webhook-deliveries$/, "invoices/[id]/webhook-deliveries"],
  [/^\/api\/v1\/archived$/, "archived"],
  [/^\/api\/v1\/webhooks\/simulate$/, "webhooks/simulate"],
  [/^\/api\/v1\/currencies$/, "currencies"],
  [/^\/api\/v1\/rates$/, "rates"],
  [/^\/api\/v1\/webhook-deliveries$/, "webhook-deliveries"],
  [/^\/api\/v1\/webhook-deliveries\/([^/]+)\/redeliver$/, "webhook-deliveries/[delivery_id]/redeliver", "delivery_id"],
];

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const root = path.resolve(import.meta.dirname, "..");

export async function startSandboxOverHttp(key: () => string): Promise<{ url: string; hooksUrl: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox.test");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (url.pathname.startsWith("/hooks/")) return void res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    const found = ROUTES.map(([pattern, name, param]) => [pattern.exec(url.pathname), name, param ?? "id"] as const).find(
      ([match]) => match,
    );
    if (!found) return void res.writeHead(404, { "content-type": "application/json" }).end('{"message":"not here"}');
    const [match, name, param] = found;
    const module = (await import(/* @vite-ignore */ path.join(root, "app/sandbox/api/v1", name, "route.ts"))) as Record<string, Handler>;
    const answer = await module[req.method ?? "GET"](
      new Request(`http://sandbox.test/sandbox${url.pathname}${url.search}`, {
        method: req.method,
        headers: { "api-key": key(), "content-type": "application/json" },
        body: chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined,
      }),
      { params: Promise.resolve<Record<string, string>>(match?.[1] ? { [param]: decodeURIComponent(match[1]) } : {}) },
    );
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api/v1`,
    hooksUrl: `${origin}/hooks`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
