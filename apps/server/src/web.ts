import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, Router } from 'express';

/**
 * Where the console's build is: `web/` beside the bundle's `dist/` in a runtime directory
 * (scripts/runtime-bundle.mjs, the container image), else where `pnpm install` (root build) or
 * `pnpm build:web` puts it in the repository (apps/web/dist).
 */
export const DEFAULT_WEB_DIR =
  [new URL('../web', import.meta.url), new URL('../../web/dist', import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((dir) => existsSync(join(dir, 'index.html'))) ??
  fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Paths the console never answers: the API, its documents and the operational endpoints keep them. */
const RESERVED = /^\/(api|trpc|docs|openapi\.json|metrics|healthz|assets)(\/|$)/;

/**
 * The console is a script from this origin and nothing else: no inline script, no other host.
 * `style-src 'unsafe-inline'` is for React's style attributes only (no CSS is loaded from elsewhere).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><h1>The web console is not built</h1><p>Run <code>pnpm build:web</code> (or <code>pnpm install</code>,
which builds it) and reload. The API works without it: <a href="/api/docs">/api/docs</a>.</p></body></html>`;

/**
 * Serves the web console (apps/web) at `/`: hashed files under /assets for a year, immutable;
 * index.html, revalidated on every load (`no-cache`), for every other GET that is not reserved,
 * so that /projects/qwen or /queue?status=FAILED load the app, which routes in the browser.
 */
export function webConsoleRouter(dir: string = DEFAULT_WEB_DIR): Router {
  const router = Router();
  const secure = (res: Response) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
  };
  router.use(
    '/assets',
    express.static(join(dir, 'assets'), {
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: secure,
    }),
  );
  router.get(
    /^\/(favicon\.svg|robots\.txt)$/,
    express.static(dir, { index: false, maxAge: '1d', setHeaders: secure }),
  );
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || RESERVED.test(req.path)) return next();
    let html: string;
    try {
      html = await readFile(join(dir, 'index.html'), 'utf8');
    } catch {
      res.status(503).type('html').setHeader('Cache-Control', 'no-store');
      return res.send(NOT_BUILT);
    }
    secure(res);
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.status(200).type('html').send(html);
  });
  return router;
}
