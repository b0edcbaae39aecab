import { AppError } from '@directory/core/server';
import type { Request, Response } from 'express';

/** An error in the envelope, with the headers its status asks for (the one place errors are sent). */
export function sendError(res: Response, error: AppError): void {
  if (error.location !== undefined) res.setHeader('Location', error.location);
  // Unavailable (no connection in time, the read model not there yet): try again shortly.
  if (error.status === 503 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', '1');
  res.status(error.status).json(error.body);
}

/** A path's 405 for every method it does not take, with their Allow header. */
export function methodNotAllowed(allowed: readonly string[]) {
  const list = allowed.join(', ');
  return (req: Request, res: Response) => {
    res.setHeader('Allow', list);
    sendError(
      res,
      new AppError('METHOD_NOT_ALLOWED', [`${req.method} is not allowed on ${req.path}; allowed: ${list}`]),
    );
  };
}
