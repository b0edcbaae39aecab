import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  ANSWER_BODY_BYTES,
  answerBody,
  answerHeaders,
  isPrivateAddress,
  sendFailure,
  type WebhookAnswer,
  WebhookSendError,
  webhookUrlProblem,
} from '@directory/core/server';

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
  /**
   * POSTs `body` and resolves to the answer: its status, its headers and body as an attempt keeps them
   * (the first 4096 bytes; the rest is read and dropped, so that a kept-alive connection stays usable),
   * and how long it took. Rejects with a WebhookSendError when the target cannot be reached, is refused,
   * or has not answered in full within the timeout (with what had come back, if anything).
   */
  post(target: string, body: string, headers: Record<string, string>): Promise<WebhookAnswer>;
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

  // Whatever goes wrong — a url stored before the one URL parser, a value the HTTP client throws on —
  // is a rejection, never a throw (docs/changes-and-webhooks.md#webhooks--key).
  function post(target: string, body: string, headers: Record<string, string>): Promise<WebhookAnswer> {
    try {
      return send(target, body, headers).catch((err: unknown) => Promise.reject(sendFailure(err)));
    } catch (err) {
      return Promise.reject(sendFailure(err));
    }
  }

  function send(target: string, body: string, headers: Record<string, string>): Promise<WebhookAnswer> {
    if (webhookUrlProblem(target))
      return Promise.reject(new WebhookSendError('not sent: the url is not a valid URL'));
    const url = new URL(target);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!options.allowPrivateTargets && isIP(host) && isPrivateAddress(host))
      return Promise.reject(
        new WebhookSendError(`refused: ${host} is a private address (WEBHOOK_ALLOW_PRIVATE is off)`),
      );
    const https = url.protocol === 'https:';
    const request = https ? httpsRequest : httpRequest;
    const started = performance.now();
    const timeout = AbortSignal.timeout(options.timeoutMs);
    return new Promise<WebhookAnswer>((resolve, reject) => {
      let answer: (() => WebhookAnswer) | undefined;
      const fail = (err: Error) => {
        const message = timeout.aborted
          ? answer
            ? `the answer did not end within ${options.timeoutMs} ms`
            : `no answer within ${options.timeoutMs} ms`
          : err.message || 'request failed';
        reject(new WebhookSendError(message, answer?.()));
      };
      const req = request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          // The address actually connected to is checked, not only the one seen at creation.
          lookup: options.allowPrivateTargets ? undefined : guardedLookup,
          signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
          agent: https ? agents.https : agents.http,
        },
        (res: IncomingMessage) => {
          const head = Buffer.alloc(ANSWER_BODY_BYTES);
          let kept = 0;
          let total = 0;
          answer = () => ({
            statusCode: res.statusCode ?? 0,
            headers: answerHeaders(res.rawHeaders),
            body: answerBody(head.subarray(0, kept), total > kept),
            bodyTruncated: total > kept,
            durationMs: Math.round(performance.now() - started),
          });
          res.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (kept < head.length) kept += chunk.copy(head, kept, 0, head.length - kept);
          });
          res.on('end', () => resolve(answer!()));
          res.on('error', fail);
        },
      );
      req.on('error', fail);
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
