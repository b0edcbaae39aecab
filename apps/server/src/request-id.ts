import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger, RequestLog } from './logger.ts';

declare global {
  namespace Express {
    interface Locals extends RequestLog {}
  }
}

// A caller's own id (from a proxy or a client) is kept when it is a short plain token, so
// that one id follows a request across services; anything else is replaced.
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Gives every request an id, returned in the X-Request-Id header, and a child logger that
 * carries it on every line logged for the request (res.locals.log).
 */
export function requestId(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const id = incoming && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    // Made when first used: most requests log nothing at the usual levels.
    let log: Logger | undefined;
    Object.defineProperty(res.locals, 'log', {
      get: () => {
        log ??= logger.child({ requestId: id });
        return log;
      },
    });
    res.setHeader('X-Request-Id', id);
    next();
  };
}
