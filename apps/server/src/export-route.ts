import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  AppError,
  csvHeaderRow,
  csvRow,
  EXPORT_CONTENT_TYPES,
  EXPORT_CURSOR_HEADER,
  EXPORT_PATH,
  EXPORT_RETRY_AFTER_S,
  EXPORT_SCOPE,
  type ExportRun,
  ExportSlots,
  exportRunning,
  headerKey,
  headerLine,
  type KeyVerifier,
  openExport,
  type Principal,
  projectLine,
  readExportInput,
  toAppError,
  unauthorized,
} from '@directory/core/server';
import { type Database, hasOneConnection, type Kysely } from '@directory/db';
import { type Request, type Response, Router } from 'express';
import { checkHeaderKey } from './checked-body.ts';
import { reportError } from './logger.ts';
import { repeatedParameters } from './repeated-params.ts';
import { methodNotAllowed, requestSignal, sendError } from './rest-adapter.ts';

/** Whether Accept-Encoding lets the answer be gzipped (`gzip`, `x-gzip` or `*`, with q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (name.trim() !== 'gzip' && name.trim() !== 'x-gzip' && name.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Whom an export is for: a key's chain of rotations (a rotated key is the same key), the bootstrap key. */
const keyIdOf = (p: Principal) => p.lineage ?? p.id ?? '(bootstrap)';

/**
 * GET /api/export (docs/api.md#export-get-apiexport): the key (401, 403 without `export`), the
 * query (400), one export per key (429), then the snapshot's lines, streamed with backpressure:
 * from the open snapshot on PostgreSQL; on PGlite, whose one connection every query waits for,
 * written to a spool file first and streamed from it once the snapshot has ended
 * (docs/decisions.md#exports-on-pglite). Optionally gzipped.
 */
export function exportRouter(options: { db: Kysely<Database>; keys: KeyVerifier }): Router {
  const { db, keys } = options;
  const slots = new ExportSlots();
  const router = Router();
  router.get(EXPORT_PATH, async (req: Request, res: Response) => {
    const sent = headerKey(req.headers['x-api-key'], req.headers.authorization);
    const principal = await checkHeaderKey({
      scope: EXPORT_SCOPE,
      headerKey: sent,
      tooLarge: false,
      known: res.locals.principal as Principal | null | undefined,
      keys,
    });
    if (principal instanceof AppError) return sendError(res, principal);
    if (!principal) return sendError(res, unauthorized());
    const repeated = repeatedParameters(req.query, (name) => name !== 'tag');
    if (repeated) return sendError(res, repeated);
    let input: ReturnType<typeof readExportInput>;
    try {
      input = readExportInput(req.query);
    } catch (err) {
      return sendError(res, toAppError(err, 'query'));
    }
    const keyId = keyIdOf(principal);
    if (!slots.take(keyId)) return refuse(res, exportRunning());
    let spool: string | undefined;
    let run: ExportRun | undefined;
    try {
      const started = await openExport(db, { keyId, input });
      run = started;
      const signal = requestSignal(res);
      const render = input.format === 'csv' ? csvRow : projectLine;
      async function* text() {
        yield input.format === 'csv' ? csvHeaderRow() : headerLine(started.header);
        for await (const projects of started.chunks()) yield projects.map(render).join('');
      }
      const lines = () => Readable.from(text(), { objectMode: false, highWaterMark: 64 * 1024 });
      let source: Readable;
      if (hasOneConnection(db)) {
        spool = await mkdtemp(join(tmpdir(), 'directory-export-'));
        const file = join(spool, 'export');
        await pipeline(lines(), createWriteStream(file, { mode: 0o600 }), { signal });
        source = createReadStream(file);
      } else source = lines();
      const gzip = acceptsGzip(req.headers['accept-encoding']);
      res.status(200);
      res.setHeader('Content-Type', EXPORT_CONTENT_TYPES[input.format]);
      res.setHeader(EXPORT_CURSOR_HEADER, started.header.cursor);
      res.setHeader('X-Export-As-Of', started.header.asOf);
      res.setHeader('X-Export-Count', String(started.header.count));
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Vary', 'Accept-Encoding');
      if (gzip) res.setHeader('Content-Encoding', 'gzip');
      if (gzip) await pipeline(source, createGzip(), res, { signal });
      else await pipeline(source, res, { signal });
    } catch (err) {
      if (res.headersSent || res.destroyed || requestClosed(err)) {
        if (!requestClosed(err)) reportError(res.locals, err, { route: `GET ${EXPORT_PATH}` });
        res.destroy();
        return;
      }
      const error = toAppError(err, 'query');
      if (error.kind === 'INTERNAL') {
        const id = reportError(res.locals, err, { route: `GET ${EXPORT_PATH}` });
        return sendError(res, new AppError('INTERNAL', [`An unexpected error occurred (request id ${id})`]));
      }
      refuse(res, error);
    } finally {
      await run?.end().catch(() => {});
      slots.give(keyId);
      if (spool) await rm(spool, { recursive: true, force: true }).catch(() => {});
    }
  });
  router.all(EXPORT_PATH, methodNotAllowed(['GET']));
  return router;
}

/** A refusal in the envelope; a 429 or 503 says when to try again. */
function refuse(res: Response, error: AppError): void {
  if (error.status === 429 || error.status === 503)
    res.setHeader('Retry-After', String(EXPORT_RETRY_AFTER_S));
  sendError(res, error);
}

/** The client went away (the pipeline was aborted, or its response closed early). */
const requestClosed = (err: unknown) => {
  const code = (err as { code?: unknown }).code;
  return code === 'ABORT_ERR' || code === 'ERR_STREAM_PREMATURE_CLOSE';
};
