import { AppError, type ReadModel } from '@directory/core/server';
import { type Database, type Kysely, type ReadSources, sql } from '@directory/db';
import type { Request, Response } from 'express';
import { buildInfo } from './build-info.ts';
import { processSlot } from './cluster-metrics.ts';
import { describeError } from './logger.ts';
import { readsHealth } from './read-status.ts';
import { sendError } from './rest-adapter.ts';
import type { SharedSettings } from './shared-settings.ts';

/**
 * GET /healthz (docs/api.md#get-healthz): 200 once this process's read model is built and the
 * database answers; `?verbose=1` adds the build, the settings every process must share, where the
 * process reads and, of several on one port, which one answered (docs/operating.md).
 */
export function healthHandler(options: {
  db: Kysely<Database>;
  readModel: ReadModel;
  reads?: ReadSources | undefined;
  sharedSettings?: SharedSettings | undefined;
}) {
  const { db, readModel, reads, sharedSettings } = options;
  return async (req: Request, res: Response) => {
    // A process answers reads from its read model: it is not ready until that is built.
    if (!readModel.ready) {
      return sendError(res, new AppError('UNAVAILABLE', ['The search index is being built']));
    }
    try {
      // with standbys, a process that can read (from a standby, or the primary) is healthy
      await sql`select 1`.execute(reads?.db() ?? db);
      // ?verbose=1: the settings every process must share, to compare processes (no secret in them).
      const verbose = req.query.verbose === '1' || req.query.verbose === 'true';
      // and, of several processes on one port (WEB_CONCURRENCY), which one answered
      const slot = processSlot();
      const process = slot === undefined ? undefined : Number(slot);
      res.json(
        verbose && sharedSettings
          ? {
              success: true,
              status: 'ok',
              ...(process !== undefined && { process }),
              ...buildInfo(),
              ...sharedSettings,
              ...readsHealth(readModel, reads),
            }
          : { success: true, status: 'ok' },
      );
    } catch (err) {
      res.locals.log.warn({ error: describeError(err) }, 'health check failed');
      sendError(res, new AppError('UNAVAILABLE', ['The database is not reachable']));
    }
  };
}
