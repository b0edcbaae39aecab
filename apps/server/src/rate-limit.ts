import { createHash } from 'node:crypto';
import { AppError } from '@directory/core/server';
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { RateLimitConfig } from './config.ts';
import { sendError } from './rest-adapter.ts';

/**
 * The optional rate limits (off unless configured): per client address and per API key,
 * each a fixed window, with the standard RateLimit/RateLimit-Policy headers and a 429 in the
 * envelope. Counters live in this process: with several processes each one counts its own.
 */
export function rateLimits(config: RateLimitConfig): RequestHandler[] {
  const seconds = Math.ceil(config.windowMs / 1000);
  const refuse = (what: string, limit: number) => (_req: Request, res: Response) =>
    sendError(
      res,
      new AppError('RATE_LIMITED', [
        `Rate limit exceeded: at most ${limit} requests per ${seconds} s per ${what}; retry after the time in the Retry-After header`,
      ]),
    );
  const common = { windowMs: config.windowMs, standardHeaders: 'draft-8', legacyHeaders: false } as const;
  const limits: RequestHandler[] = [];
  if (config.perAddress > 0) {
    limits.push(
      rateLimit({
        ...common,
        limit: config.perAddress,
        identifier: 'per-address',
        handler: refuse('client address', config.perAddress),
      }),
    );
  }
  if (config.perKey > 0) {
    limits.push(
      rateLimit({
        ...common,
        limit: config.perKey,
        identifier: 'per-key',
        // Counted by the x-api-key header, which is known before the body is read; held as a
        // hash, so the key itself is not kept. A key sent only in the body counts per address.
        skip: (req) => !req.get('x-api-key'),
        keyGenerator: (req) =>
          createHash('sha256')
            .update(req.get('x-api-key') ?? '')
            .digest('base64url'),
        handler: refuse('API key', config.perKey),
      }),
    );
  }
  return limits;
}
