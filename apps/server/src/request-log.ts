import type { Principal } from '@directory/core/server';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger.ts';

const isPrincipal = (p: unknown): p is Principal =>
  typeof p === 'object' && p !== null && typeof (p as Principal).name === 'string';

/**
 * One listener per request for both its log line and its metrics (docs/operating.md#logs): the
 * method, path, status and time, the client as TRUST_PROXY tells it and the key's name (never
 * the key); a 5xx (the database away, a defect) at warn, what an operator alerts on from logs.
 */
export function requestLog(logger: Logger, record: (req: Request, res: Response, seconds: number) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      record(req, res, ms / 1000);
      const level = res.statusCode >= 500 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      res.locals.log[level](
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          client: req.ip ?? req.socket.remoteAddress,
          ...(isPrincipal(res.locals.principal) && { key: res.locals.principal.name }),
        },
        'request',
      );
    });
    next();
  };
}
