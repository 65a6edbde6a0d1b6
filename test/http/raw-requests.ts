import http from "node:http";
import net from "node:net";

/**
 * Requests a browser or fetch() would never send, for the hostile-traffic and fuzz suites: a body that
 * trickles in, and a body far over any limit (declared by its Content-Length, or chunked).
 */

/** A raw connection that sends a POST's headers, then its body at one byte every `everyMs`; what it is answered. */
export function slowBody(url: string, path: string, headers: Record<string, string>, everyMs: number) {
  const { port, hostname } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const lines = [
    `POST ${path} HTTP/1.1`,
    `host: ${hostname}`,
    "content-type: application/json",
    "content-length: 1000",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n{`);
  const drip = setInterval(() => socket.writable && socket.write(" "), everyMs);
  let received = "";
  socket.on("data", (chunk) => (received += chunk));
  socket.on("error", () => {});
  const answered = new Promise<{ answer: string; status: number | null }>((resolve) =>
    socket.on("close", () => {
      clearInterval(drip);
      resolve({ answer: received, status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1]) || null });
    }),
  );
  return { answered, stop: () => (clearInterval(drip), socket.destroy()) };
}

/** A POST whose body is `size` bytes, sent chunked or with its Content-Length; its status, or "reset". */
export function bigPost(
  url: string,
  path: string,
  size: number,
  { chunked, headers = {} }: { chunked: boolean; headers?: Record<string, string> },
): Promise<number | "reset"> {
  return new Promise((resolve) => {
    const request = http.request(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers, ...(chunked ? {} : { "content-length": String(size) }) },
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on("error", () => resolve("reset"));
    const chunk = Buffer.alloc(1_048_576, "x");
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", write);
      }
      request.end();
    };
    write();
  });
}
