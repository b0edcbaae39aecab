// A local SQLite copy of the directory: export it, then follow the change feed (examples/mirror/README.md).
// BASE_URL, API_KEY (scopes export and changes:read), MIRROR_DB (the SQLite file); --once: stop when caught up.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import initSqlJs from 'sql.js';

const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const API_KEY = process.env.API_KEY ?? '';
const FILE = process.env.MIRROR_DB ?? 'mirror.sqlite';
const ONCE = process.argv.includes('--once') || process.env.MIRROR_ONCE === '1';
const BATCH = 200;

const SQL = await initSqlJs();
const db = existsSync(FILE) ? new SQL.Database(readFileSync(FILE)) : new SQL.Database();
db.run(`CREATE TABLE IF NOT EXISTS projects (id TEXT PRIMARY KEY, updated_at TEXT NOT NULL, body TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);

function state(key) {
  const rows = db.exec('SELECT value FROM state WHERE key = ?', [key]);
  return rows[0]?.values[0]?.[0];
}

/** sql.js holds the database in memory: a commit is written whole to a temporary file, fsynced and
 *  renamed over the real one, so the file on disk is always one committed state, never half of one. */
function persist() {
  const tmp = `${FILE}.tmp`;
  const fd = openSync(tmp, 'w');
  writeSync(fd, db.export());
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, FILE);
  const dir = openSync(dirname(FILE), 'r');
  fsyncSync(dir);
  closeSync(dir);
}

/** One transaction: the rows and the progress (`state`) together, then on disk. */
function commit({ put = [], remove = [], set = {} }) {
  db.run('BEGIN');
  try {
    for (const id of remove) db.run('DELETE FROM projects WHERE id = ?', [id]);
    for (const p of put)
      db.run('INSERT OR REPLACE INTO projects (id, updated_at, body) VALUES (?, ?, ?)', [
        p.id,
        p.updatedAt,
        JSON.stringify(p),
      ]);
    for (const [key, value] of Object.entries(set))
      db.run('INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)', [key, value]);
    db.run('COMMIT');
  } catch (err) {
    db.run('ROLLBACK');
    throw err;
  }
  persist();
}

async function api(path, init = {}) {
  const res = await fetch(BASE_URL + path, {
    ...init,
    redirect: 'manual',
    headers: { 'x-api-key': API_KEY },
  });
  if (res.status >= 500 || res.status === 429 || res.status === 401 || res.status === 403)
    throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res;
}

/** The lines of an NDJSON body, as they arrive. */
async function* lines(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n');
    while (end >= 0) {
      if (end > 0) yield JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      end = buffer.indexOf('\n');
    }
  }
  if (buffer.trim()) yield JSON.parse(buffer);
}

/** The export, resumed after the last id stored; the FIRST part's cursor is the one followed
 *  (docs/changes-and-webhooks.md#export-then-follow). */
async function exportAll() {
  const after = state('export_after');
  const query = new URLSearchParams({ format: 'ndjson', status: 'ALL' });
  if (after) query.set('after', after);
  const res = await api(`/api/export?${query}`);
  if (res.status !== 200) throw new Error(`export: HTTP ${res.status} ${await res.text()}`);
  let header;
  let received = 0;
  let batch = [];
  const flush = (done) => {
    const set = { cursor: state('cursor') ?? header.cursor };
    if (batch.length) set.export_after = batch[batch.length - 1].id;
    if (done) set.export_done = '1';
    commit({ put: batch, set });
    received += batch.length;
    console.log(`export: ${received}/${header.count} stored${after ? ` (resumed after ${after})` : ''}`);
    batch = [];
  };
  for await (const line of lines(res.body)) {
    if (line.type === 'export') header = line;
    else {
      batch.push(line);
      if (batch.length === BATCH) flush(false);
    }
  }
  if (!header || received + batch.length !== header.count)
    throw new Error('export: cut short; run again to resume');
  flush(true);
}

/** The project a slug leads to now (an alias's 301 followed: a renamed or merged project), or
 *  undefined (404: deleted). Endpoint 2 reads by slug; the feed gives each change's slug. */
async function current(slug) {
  let res = await api(`/api/projects/${encodeURIComponent(slug)}`);
  for (let hops = 0; res.status === 301 && hops < 5; hops++) {
    const to = new URL(res.headers.get('location') ?? '', `${BASE_URL}/`);
    res = await api(to.pathname);
  }
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`project ${slug}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

/** Follows the feed from the stored cursor; each page applied in one transaction with its nextCursor. */
async function follow() {
  console.log(`feed: following from ${state('cursor') ?? 'the oldest retained change'}`);
  for (;;) {
    const cursor = state('cursor');
    const query = new URLSearchParams({ limit: '200', wait: ONCE ? '0' : '25' });
    if (cursor) query.set('after', cursor);
    const res = await api(`/api/changes?${query}`);
    if (res.status !== 200) throw new Error(`changes: HTTP ${res.status} ${await res.text()}`);
    const page = await res.json();
    // The projects the page names, each with its newest slug (a merge names its target too).
    const slugs = new Map();
    for (const change of page.changes) {
      if (!change.type.startsWith('project.') || !change.projectId) continue;
      slugs.set(change.projectId, change.slug);
      if (change.intoProjectId) slugs.set(change.intoProjectId, change.intoSlug);
    }
    const put = new Map();
    const remove = [];
    for (const [id, slug] of slugs) {
      const project = await current(slug);
      // Another project at the end of the slug: this one is gone (merged into it, or deleted).
      if (project?.id !== id) remove.push(id);
      if (project) put.set(project.id, project);
    }
    if (page.changes.length) {
      commit({
        put: [...put.values()],
        remove: remove.filter((id) => !put.has(id)),
        set: { cursor: page.nextCursor },
      });
      console.log(`feed: ${page.changes.length} changes, ${put.size} stored, ${remove.length} removed`);
    }
    if (ONCE && !page.hasMore && page.changes.length === 0) return console.log('feed: caught up');
  }
}

if (state('export_done') !== '1') await exportAll();
else console.log('export: already finished');
await follow();
