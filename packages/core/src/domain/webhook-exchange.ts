import { attemptError } from './webhook-delivery.ts';

/*
 * What a webhook attempt keeps of its exchange
 * (docs/changes-and-webhooks.md#a-deliverys-request-and-response): the request as sent (its headers
 * carry signatures, never a secret) and a bounded copy of the answer — its first 4096 bytes,
 * decoded as UTF-8 without splitting a character, and its first 50 headers within 8 KB. The sender
 * (apps/server/src/webhooks/post.ts) reads the answer with these; the procedures and the dispatcher
 * record them.
 */

/** Bytes of an answer's body kept. */
export const ANSWER_BODY_BYTES = 4096;
/** An answer's headers kept: at most this many, and this many bytes of names and values. */
export const ANSWER_HEADERS = { count: 50, bytes: 8192 } as const;

/** What the target answered: a sender's result (the body already bounded). */
export interface WebhookAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  bodyTruncated: boolean;
  /** From sending the request to the answer's last byte (or to the failure). */
  durationMs: number;
}

/**
 * A send that failed (unreachable, refused, timed out): its message is the attempt's error; `answer`
 * is what had come back before it failed (a status and headers, part of a body), if anything.
 */
export class WebhookSendError extends Error {
  constructor(
    message: string,
    readonly answer?: WebhookAnswer,
  ) {
    super(message);
    this.name = 'WebhookSendError';
  }
}

/**
 * Any error of a send — thrown or rejected, of any kind — as the failed attempt records it
 * (docs/changes-and-webhooks.md#webhooks--key): a WebhookSendError as it is, another error by its
 * message (never its stack), anything else as "not sent".
 */
export function sendFailure(err: unknown): WebhookSendError {
  if (err instanceof WebhookSendError) return err;
  const message = err instanceof Error ? err.message || err.name : '';
  return new WebhookSendError(
    message ? `not sent: ${message.slice(0, 300)}` : 'not sent: an unexpected error',
  );
}

/** The request as an attempt records it: what was sent, with the content-length the sender adds. */
export function sentRequest(url: string, headers: Record<string, string>, body: string) {
  return { url, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, body };
}

// PostgreSQL's text and jsonb hold no NUL character.
const withoutNul = (s: string) => s.replaceAll('\u0000', '\uFFFD');

/**
 * The kept part of an answer's body: `head` is at most its first ANSWER_BODY_BYTES bytes; when the
 * answer had more (`truncated`), a character the cut split is left out rather than shown broken.
 */
export function answerBody(head: Uint8Array, truncated: boolean): string {
  let end = head.length;
  if (truncated) {
    // Step back over continuation bytes (10xxxxxx) to the last lead byte; drop it if its
    // character does not fit.
    let lead = end - 1;
    while (lead >= 0 && end - lead < 4 && (head[lead]! & 0xc0) === 0x80) lead--;
    if (lead >= 0) {
      const b = head[lead]!;
      const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (lead + size > end) end = lead;
    }
  }
  return withoutNul(new TextDecoder('utf-8').decode(head.subarray(0, end)));
}

/**
 * An answer's headers as kept: names lower-case, a repeated header's values joined with ", ", in the
 * order received, up to ANSWER_HEADERS (the header that would pass a bound, and every one after it,
 * is left out). `raw` is Node's rawHeaders: name, value, name, value, …
 */
export function answerHeaders(raw: readonly string[]): Record<string, string> {
  const kept = new Map<string, string>();
  let count = 0;
  let bytes = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = withoutNul(raw[i + 1]!);
    const size = Buffer.byteLength(name) + Buffer.byteLength(value);
    if (count + 1 > ANSWER_HEADERS.count || bytes + size > ANSWER_HEADERS.bytes) break;
    count++;
    bytes += size;
    const before = kept.get(name);
    kept.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  // fromEntries defines each name as its own property, `__proto__` too
  return Object.fromEntries(kept);
}

/** One attempt's outcome and exchange, as the attempt is recorded. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  success: boolean;
  durationMs: number;
  exchange: {
    request: { url: string; headers: Record<string, string>; body: string };
    response: { headers: Record<string, string> | null; body: string | null; bodyTruncated: boolean };
  };
}

/**
 * What a send came to: the answer, or the failure (with what had come back before it, if anything);
 * `elapsedMs` is used when the sender could not say how long it took.
 */
export function attemptOutcome(
  request: { url: string; headers: Record<string, string>; body: string },
  result: WebhookAnswer | Error,
  elapsedMs: number,
): AttemptOutcome {
  const failed = result instanceof Error;
  const answer = failed ? (result as Partial<WebhookSendError>).answer : result;
  const statusCode = answer?.statusCode ?? null;
  const error = failed ? result.message || 'request failed' : attemptError(result.statusCode);
  return {
    statusCode,
    error,
    success: error === null,
    durationMs: Math.round(answer?.durationMs ?? elapsedMs),
    exchange: {
      request: sentRequest(request.url, request.headers, request.body),
      response: {
        headers: answer?.headers ?? null,
        body: answer?.body ?? null,
        bodyTruncated: answer?.bodyTruncated ?? false,
      },
    },
  };
}

/** Sends a signed message and resolves to the answer (a sender: apps/server/src/webhooks/post.ts). */
export type WebhookSender = (
  url: string,
  body: string,
  headers: Record<string, string>,
) => Promise<WebhookAnswer>;

/**
 * One attempt (docs/changes-and-webhooks.md#webhooks--key): makes the message (its body and signed
 * headers) and sends it. It never throws: whatever fails on the way — making the message, a send that
 * throws at once or rejects, with an error of any kind — is a failed attempt with its error. `answered`
 * tells whether the target answered at all.
 */
export async function sendAttempt(
  url: string,
  message: () => { body: string; headers: Record<string, string> },
  send: WebhookSender,
): Promise<AttemptOutcome & { answered: boolean }> {
  const started = performance.now();
  let request = { url, headers: {} as Record<string, string>, body: '' };
  let result: WebhookAnswer | WebhookSendError;
  try {
    request = { url, ...message() };
    result = await send(url, request.body, request.headers);
  } catch (err) {
    result = sendFailure(err);
  }
  return {
    ...attemptOutcome(request, result, performance.now() - started),
    answered: !(result instanceof Error),
  };
}
