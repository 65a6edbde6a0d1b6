// Request bodies, read by the server layer before a request takes its front-door place: a slow
// client then costs one socket, never a place, and no body is read past its size limit.
//
//   - a Content-Length over the limit is refused at once (413), before a byte of the body is read;
//   - a chunked body is counted as it arrives and refused (413) the moment it passes the limit;
//   - a body that has not fully arrived within the deadline is refused (408);
// After a refusal the connection is closed. The rest of an oversized body is read and dropped for a moment
// first (as nginx's "lingering close" does), so a client still sending gets its answer instead of a reset.
import { IncomingMessage } from "node:http";

/** How long the rest of a refused body is read and dropped before the connection is cut. */
const LINGER_MS = 2_000;

/** Whether the request says it carries a body (RFC 9112 §6.3). */
export function hasBody(req) {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && length !== "0";
}

/**
 * Reads the whole body, within `limit` bytes and `timeoutMs`.
 * @returns {Promise<{ body: Buffer } | { refused: 408 | 413 } | { gone: true }>} `gone`: the client went away.
 */
export function readBody(req, { limit, timeoutMs }) {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ refused: 413 });
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      // A client that goes away mid-body is normal: nothing may throw for it later.
      req.on("error", () => {});
      resolve(result);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) return finish({ refused: 413 });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ body: Buffer.concat(chunks, size) });
    const onGone = () => finish({ gone: true });
    const timer = setTimeout(() => finish({ refused: 408 }), timeoutMs);
    req.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onGone);
  });
}

/**
 * After a refusal has been answered: a slow client (408) is cut as soon as its answer is out. A client still
 * sending a body that is too large gets its answer and the end of the connection (FIN), and what it goes on
 * sending is read and dropped for LINGER_MS before the socket is destroyed; closing at once would make the
 * kernel reset the connection, and a reset can discard the 413 before the client reads it.
 */
export function closeAfterRefusal(req, res, status) {
  const socket = req.socket;
  if (status === 408) return res.once("finish", () => socket.destroy());
  // Node.js calls destroySoon once an answer with `Connection: close` is out.
  socket.destroySoon = function lingeringClose() {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
  req.on("data", () => {});
  req.resume();
}

/**
 * The request as Next.js should see it: the same socket, method, URL and headers, and the body already read
 * (a real IncomingMessage, so nothing downstream can tell the difference but for a Content-Length that now
 * states the body's size, chunked or not).
 */
export function withBody(req, body) {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  const headers = { ...req.headers, "content-length": String(body.length) };
  delete headers["transfer-encoding"];
  copy.headers = headers;
  copy.rawHeaders = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (name !== "content-length" && name !== "transfer-encoding") copy.rawHeaders.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  copy.rawHeaders.push("content-length", String(body.length));
  if (body.length > 0) copy.push(body);
  copy.push(null);
  copy.complete = true;
  return copy;
}
