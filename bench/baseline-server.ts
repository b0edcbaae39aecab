import { createServer, type ServerResponse } from 'node:http';
import { toProject } from '../packages/core/src/schemas/project.ts';
import { connect, type ProjectDetailRow, projectDetailStatement } from '../packages/db/src/index.ts';

// The raw limit for GET /api/projects/{slug}: node:http and a pg.Pool, nothing else. It runs
// exactly the SQL of the service (the repository's own query, compiled once) as a named
// prepared statement, as the service's pool does, and writes the same envelope.
//
// Env: DATABASE_URL (postgres://…), PORT, HOST (127.0.0.1), DB_POOL_SIZE (10, as the service).

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl?.match(/^postgres(ql)?:\/\//)) {
  console.error('DATABASE_URL must be postgres://…');
  process.exit(2);
}
const handle = await connect(databaseUrl, { poolSize: Number(process.env.DB_POOL_SIZE || 10) });
const { pool } = handle;

// Kysely only compiles the service's statement (once); every query below goes straight
// through pg, as a named prepared statement like the service's.
const statementFor = (slug: string) => {
  const { sql, parameters } = projectDetailStatement(handle.db, slug);
  return { name: 'baseline_project_by_slug', text: sql, values: parameters };
};

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

const notFound = (details: string) => ({ success: false, error: 'Not Found', details: [details] });

const server = createServer(async (req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/healthz') return send(res, 200, { success: true, status: 'ok' });
  const match = /^\/api\/projects\/([^/]+)$/.exec(path);
  if (req.method !== 'GET' || !match) return send(res, 404, notFound(`No route for ${req.method} ${path}`));
  let slug: string;
  try {
    slug = decodeURIComponent(match[1]!);
  } catch {
    return send(res, 400, { success: false, error: 'Validation error', details: ['path: Malformed URL'] });
  }
  try {
    const { rows } = await pool.query<ProjectDetailRow>(statementFor(slug));
    const row = rows[0];
    if (!row) return send(res, 404, notFound(`Project with slug "${slug}" not found`));
    send(res, 200, { success: true, data: toProject(row) });
  } catch {
    send(res, 500, {
      success: false,
      error: 'Internal server error',
      details: ['An unexpected error occurred'],
    });
  }
});

server.listen(Number(process.env.PORT || 0), process.env.HOST || '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`baseline listening on http://${process.env.HOST || '127.0.0.1'}:${port}`);
});

const stop = () => {
  server.close(() => void handle.close().then(() => process.exit(0)));
  server.closeIdleConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
