import "server-only";
import { type LookupAddress, type LookupOptions, lookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import ipaddr from "ipaddr.js";

/**
 * Which callback addresses a webhook may reach. A merchant chooses the callback URL, so without a rule the
 * sandbox would post to whatever sits on its own network (SSRF): only public addresses are reached, plus the
 * console's own origins and what the allowlist names.
 */
export type CallbackPolicy = {
  /** Origins always reachable, such as the console's own (its webhook inbox). */
  ownOrigins: string[];
  allowlist: { hosts: string[]; cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][] };
};

/** Why a callback got no answer. `permanent` when trying again cannot help: the policy refuses the address. */
export class CallbackError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

/** How much of a receiver's answer is kept: enough to read an error message, never a flood. */
export const RESPONSE_BODY_LIMIT = 2_048;

export type CallbackAnswer = { status: number; body: string };

/**
 * POSTs `body` to `url` and resolves with the HTTP status the receiver answered, whatever it is, and the first
 * 2 KB of its answer (as much as arrived within the attempt's deadline).
 */
export async function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { policy: CallbackPolicy; timeoutMs: number },
): Promise<CallbackAnswer> {
  const target = parseTarget(url);
  const guard = trusted(target, options.policy) ? undefined : guardedLookup(options.policy);
  // An address written as an IP is never looked up, so it is checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, "");
  if (guard && ipaddr.isValid(literal) && !isReachable(literal, options.policy)) throw refused(target.hostname, literal);

  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    let answered: ((reason: "end" | "deadline") => void) | undefined;
    const request = client.request(
      target,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "InvoiceConsole-Sandbox-Webhooks/1",
        },
        lookup: guard,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        answered = () => {
          clearTimeout(deadline);
          answered = undefined;
          response.destroy();
          resolve({
            status,
            body: Buffer.concat(chunks)
              .subarray(0, RESPONSE_BODY_LIMIT)
              .toString("utf8")
              .replace(/\uFFFD+$/, ""),
          });
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_BODY_LIMIT) answered?.("end");
        });
        response.on("end", () => answered?.("end"));
        response.on("error", () => answered?.("end"));
      },
    );
    // One deadline for the whole attempt: a receiver that trickles bytes must not hold it open. Once the
    // status line is in, what arrived of the body by then is the answer.
    const deadline = setTimeout(() => {
      if (answered) answered("deadline");
      else request.destroy(new CallbackError(`no answer within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    request.on("error", (error) => {
      if (answered) return answered("end");
      clearTimeout(deadline);
      reject(error instanceof CallbackError ? error : new CallbackError(describe(error, target)));
    });
    request.end(body);
  });
}

function parseTarget(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new CallbackError(`the callback URL ${JSON.stringify(url)} is not a URL`, true);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new CallbackError(`the callback URL must be http or https, not ${target.protocol}`, true);
  return target;
}

function trusted(target: URL, policy: CallbackPolicy): boolean {
  return policy.ownOrigins.includes(target.origin) || policy.allowlist.hosts.includes(target.hostname.toLowerCase());
}

function isReachable(address: string, policy: CallbackPolicy): boolean {
  const ip = ipaddr.process(address);
  if (ip.range() === "unicast") return true;
  return (
    policy.allowlist.hosts.includes(ip.toString()) ||
    policy.allowlist.cidrs.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))
  );
}

function refused(host: string, address: string): CallbackError {
  return new CallbackError(`${host} is ${address}, a private address; add it to SANDBOX_CALLBACK_ALLOWLIST to allow it`, true);
}

/** DNS lookup that refuses private addresses at connect time, so a name cannot change its answer in between. */
function guardedLookup(policy: CallbackPolicy) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const blocked = addresses.find((a) => !isReachable(a.address, policy));
      if (blocked) return callback(refused(hostname, blocked.address), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function describe(error: NodeJS.ErrnoException, target: URL): string {
  switch (error.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `could not resolve ${target.hostname}`;
    case "ECONNREFUSED":
      return `${target.host} refused the connection`;
    case "ECONNRESET":
      return `${target.host} closed the connection`;
    default:
      return error.message || String(error.code);
  }
}
