import { attemptError } from '../domain/webhook-delivery.ts';
import { AppError } from '../errors.ts';
import type { Context } from '../trpc.ts';

/** One POST made now for a request (redeliver, ping): its outcome as an attempt records it. */
export interface SentNow {
  statusCode: number | null;
  error: string | null;
  success: boolean;
  durationMs: number;
}

export async function sendNow(
  ctx: Context,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<SentNow> {
  const send = ctx.sendWebhook;
  if (!send) throw new AppError('INTERNAL', ['This transport cannot send webhooks']);
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null;
  try {
    statusCode = await send(url, body, headers);
    error = attemptError(statusCode);
  } catch (err) {
    error = (err as Error).message || 'request failed';
  }
  return { statusCode, error, success: error === null, durationMs: Math.round(performance.now() - started) };
}
