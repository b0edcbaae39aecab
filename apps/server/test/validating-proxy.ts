import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface ValidatingProxy {
  url: string;
  /** `METHOD /path/template status` of every response that was checked against the document. */
  checked: string[];
  /** What did not match the document: an undocumented status, or a body its schema refuses. */
  violations: string[];
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A reverse proxy in front of `target` that checks every response of an operation in the OpenAPI
 * `document` (matched by method and path template) against it: the status must be documented for
 * the operation, and a JSON body must match that status's schema (ajv, JSON Schema 2020-12, the
 * document as the schema store). Requests to paths the document does not have are passed through
 * unchecked.
 */
export async function startValidatingProxy(target: string, document: any): Promise<ValidatingProxy> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, 'doc');
  const routes = Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({
      method: method.toUpperCase(),
      path,
      regex: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  );
  const checked: string[] = [];
  const violations: string[] = [];

  const check = (
    method: string,
    url: string,
    status: number,
    contentType: string | undefined,
    body: Buffer,
  ) => {
    const path = url.split('?')[0]!;
    const route = routes.find((r) => r.method === method && r.regex.test(path));
    if (!route) return;
    const label = `${method} ${route.path} ${status}`;
    checked.push(label);
    const response = document.paths[route.path][method.toLowerCase()].responses[String(status)];
    if (!response) {
      violations.push(`${label}: status not documented (${url}): ${body.toString('utf8').slice(0, 300)}`);
      return;
    }
    const schemaAt = `doc#/paths/${esc(route.path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    if (!response.content?.['application/json']) return;
    if (!contentType?.startsWith('application/json')) {
      violations.push(`${label}: content-type ${contentType}, documented application/json`);
      return;
    }
    const validate = ajv.getSchema(schemaAt)!;
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      violations.push(`${label}: the body is not JSON`);
      return;
    }
    if (!validate(json)) {
      violations.push(
        `${label} (${url}): ${ajv.errorsText(validate.errors)}: ${body.toString('utf8').slice(0, 300)}`,
      );
    }
  };

  const { hostname, port } = new URL(target);
  const server = createServer({ maxHeaderSize: 64 * 1024, requestTimeout: 0 }, (req, res) => {
    const upstream = httpRequest(
      { hostname, port, method: req.method, path: req.url, headers: req.headers },
      (reply: IncomingMessage) => {
        const chunks: Buffer[] = [];
        reply.on('data', (c: Buffer) => chunks.push(c));
        reply.on('end', () => {
          const body = Buffer.concat(chunks);
          check(req.method!, req.url!, reply.statusCode!, reply.headers['content-type'], body);
          res.writeHead(reply.statusCode!, reply.headers);
          res.end(body);
        });
      },
    );
    upstream.on('error', (err) => {
      violations.push(`${req.method} ${req.url}: the proxied request failed: ${err.message}`);
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    checked,
    violations,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
