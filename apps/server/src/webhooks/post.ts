import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '@directory/core/server';

export interface PosterOptions {
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivateTargets: boolean;
  /** WEBHOOK_TIMEOUT_MS: one POST, connecting to the last byte of the answer. */
  timeoutMs: number;
  /** Connections kept open per protocol (the dispatcher's); absent: none kept (a request's sends). */
  maxSockets?: number | undefined;
  /** Aborts every POST in flight (shutting down). */
  signal?: AbortSignal | undefined;
}

export interface Poster {
  /** POSTs `body` and resolves to the status code; the answer's body is read and dropped. */
  post(target: string, body: string, headers: Record<string, string>): Promise<number>;
  destroy(): void;
}

/**
 * How webhook messages are sent: by the dispatcher, and by redeliver and ping (which send at
 * once, for a request). A private target is refused unless allowed, by its literal address and
 * by every address its name resolves to (the address connected to is the one checked).
 */
export function createPoster(options: PosterOptions): Poster {
  // Kept-alive connections: a busy webhook gets many POSTs a second. A connection is opened
  // through guardedLookup, so a reused one goes to an address that was checked.
  const keepAlive = options.maxSockets !== undefined;
  const agents = {
    http: new HttpAgent({ keepAlive, ...(keepAlive && { maxSockets: options.maxSockets }) }),
    https: new HttpsAgent({ keepAlive, ...(keepAlive && { maxSockets: options.maxSockets }) }),
  };

  function post(target: string, body: string, headers: Record<string, string>): Promise<number> {
    const url = new URL(target);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!options.allowPrivateTargets && isIP(host) && isPrivateAddress(host))
      return Promise.reject(
        new Error(`refused: ${host} is a private address (WEBHOOK_ALLOW_PRIVATE is off)`),
      );
    const https = url.protocol === 'https:';
    const request = https ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          // The address actually connected to is checked, not only the one seen at creation.
          lookup: options.allowPrivateTargets ? undefined : guardedLookup,
          signal: options.signal
            ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)])
            : AbortSignal.timeout(options.timeoutMs),
          agent: https ? agents.https : agents.http,
        },
        (res: IncomingMessage) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', (err: Error) =>
        reject(err.name === 'TimeoutError' ? new Error(`no answer within ${options.timeoutMs} ms`) : err),
      );
      req.end(body);
    });
  }

  return {
    post,
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** dns.lookup that fails for private addresses, so a connection never reaches one. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) {
      return callback(
        new Error(`refused: ${hostname} resolves to a private address (WEBHOOK_ALLOW_PRIVATE is off)`),
        '',
        0,
      );
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
    callback(null, first.address, first.family);
  });
};
