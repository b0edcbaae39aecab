import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { type ErrorKind, openApiDocument } from '@directory/core/server';
import { type Request, type Response, Router } from 'express';
import { methodNotAllowed, readsBody } from './rest-adapter.ts';

const require = createRequire(import.meta.url);
const { version } = require('../package.json') as { version: string };
// Resolved, not imported: the package's main module would load the whole browser bundle into the server.
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

const DOCUMENT_PATH = '/api/openapi.json';
const PAGE_PATH = '/api/docs';
const ASSETS = `${PAGE_PATH}/assets`;
const INIT_PATH = `${PAGE_PATH}/init.js`;

/**
 * What this server adds to an operation of a method, besides its procedure: the body is read
 * (so it may carry apiKey, and may be over the limit: rest-adapter.ts), headers may be over
 * Node's limit and a request may stall past the request timeout (createHttpServer), requests
 * may be rate limited when that is configured (rate-limit.ts), and unexpected errors are 500s
 * (rest-adapter.ts, app.ts).
 */
function transport(rateLimited: boolean) {
  return (method: string): { readsBody: boolean; errors: ErrorKind[] } => {
    const body = readsBody(method);
    const errors: ErrorKind[] = ['REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'INTERNAL'];
    if (body) errors.push('PAYLOAD_TOO_LARGE');
    if (rateLimited) errors.push('RATE_LIMITED');
    return { readsBody: body, errors };
  };
}

// Everything from this origin: Swagger UI's files from swagger-ui-dist, no validator badge
// (it would load an image from validator.swagger.io).
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Project Directory API</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
<link rel="icon" href="${ASSETS}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${INIT_PATH}"></script>
</body>
</html>
`;

/** Swagger UI's files that PAGE loads, by name, with their type: only these are served. */
const PAGE_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'text/javascript',
  'favicon-32x32.png': 'image/png',
};

const INIT = `window.ui = SwaggerUIBundle({ url: '${DOCUMENT_PATH}', dom_id: '#swagger-ui', validatorUrl: null });\n`;

// The browser may load nothing from elsewhere; Swagger UI sets inline styles and data: images.
const PAGE_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The OpenAPI document this server serves (with or without rate limiting configured). */
export function serverOpenApiDocument(options: { rateLimited: boolean }) {
  return openApiDocument({ version, transport: transport(options.rateLimited) });
}

/**
 * `GET /api/openapi.json`, the OpenAPI document (made once, here), and `GET /api/docs`, an
 * interactive reference (Swagger UI) that loads it.
 */
export function docsRouter(options: { rateLimited: boolean }): Router {
  const document = JSON.stringify(serverOpenApiDocument(options));
  const router = Router();
  router.get(DOCUMENT_PATH, (_req: Request, res: Response) => {
    res.type('application/json').send(document);
  });
  // the page and everything it loads, with the page's headers (docs/getting-started.md#rest-the-openapi-document-and-the-docs-page)
  const pageHeaders = (res: Response) => res.setHeader('Content-Security-Policy', PAGE_POLICY);
  router.get(PAGE_PATH, (_req: Request, res: Response) => {
    pageHeaders(res);
    res.type('html').send(PAGE);
  });
  router.get(INIT_PATH, (_req: Request, res: Response) => {
    pageHeaders(res);
    res.type('text/javascript').send(INIT);
  });
  // only the files the page loads: none of the package's others (its index.html with a URL
  // bar, oauth2-redirect.html, source maps)
  const files = Object.keys(PAGE_FILES).map((name) => `${ASSETS}/${name}`);
  router.get(files, (req: Request, res: Response) => {
    const name = req.path.slice(ASSETS.length + 1);
    pageHeaders(res);
    res.type(PAGE_FILES[name]!).sendFile(name, { root: SWAGGER_UI_DIR });
  });
  for (const path of [DOCUMENT_PATH, PAGE_PATH, INIT_PATH, ...files]) {
    router.all(path, methodNotAllowed(['GET']));
  }
  return router;
}
