import { type AttemptOutcome, attemptOutcome } from '../domain/webhook-exchange.ts';
import { AppError } from '../errors.ts';
import type { Context } from '../trpc.ts';

/**
 * One POST made now for a request (redeliver, ping): its outcome and exchange as an attempt records
 * them (docs/changes-and-webhooks.md#a-deliverys-request-and-response).
 */
export async function sendNow(
  ctx: Context,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<AttemptOutcome> {
  const send = ctx.sendWebhook;
  if (!send) throw new AppError('INTERNAL', ['This transport cannot send webhooks']);
  const started = performance.now();
  const result = await send(url, body, headers).catch((err: unknown) =>
    err instanceof Error ? err : new Error(String(err)),
  );
  return attemptOutcome({ url, headers, body }, result, performance.now() - started);
}
