import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { urlKey } from '../packages/core/src/domain/url-key.ts';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { benchId, projectSlug, projectTagIndexes, seededProject, TAG_POOL, tagSlugs } from './data.ts';
import { prepareSearch } from './search.ts';
import { inChunks, type Pool } from './seed-chunks.ts';
import { type SeededTask, seedTasks, type WrittenProjects } from './seed-tasks.ts';

export type { WrittenProjects };

export interface SeedResult {
  projects: number;
  /** Slug of seeded project i at index i. */
  slugs: string[];
  tasks: SeededTask[];
  /** How the projects were written: through endpoint 1, or straight into the tables. */
  via: 'api' | 'sql';
  /** The whole seeding, the projects alone, and the VACUUM ANALYZE at its end. */
  seconds: number;
  projectSeconds: number;
  vacuumSeconds: number;
}

/**
 * Tasks seeded unless told otherwise, the same at every size: the 1k→100k comparison is about
 * the number of projects, and the queue's own depth shows in the deep-offset scenarios.
 */
export const DEFAULT_TASKS = 20_000;

// Rows travel as one JSON parameter per table and chunk (json_to_recordset): one round trip
// per chunk, and JSON.stringify is the cheapest way to move that much text from JS. Only the
// columns a project's own fields fill, and the URL keys the service writes beside links and
// task urls (core's urlKey; a server starting on rows without them would key them one batch
// at a time): whatever else the schema derives from them (the read model, search columns while
// they existed) is built from these.
const INSERT_CHUNK = `
  with
    p as (
      insert into projects (id, slug, name, name_en, description, description_en, content, content_en,
        status, source, created_at, updated_at)
      select id, slug, name, name_en, description, description_en, content, content_en,
        status, source, created_at, created_at
      from json_to_recordset($1::json) as r(id text, slug text, name text, name_en text, description text,
        description_en text, content text, content_en text, status text, source text, created_at timestamptz)
      returning 1
    ),
    l as (
      insert into links (id, project_id, type, url, url_key, title, position)
      select id, project_id, type, url, url_key, title, position
      from json_to_recordset($2::json) as r(id text, project_id text, type text, url text, url_key text, title text,
        position int)
      returning 1
    )
  insert into project_tags (project_id, tag_id, position)
  select project_id, tag_id, position
  from json_to_recordset($3::json) as r(project_id text, tag_id text, position int)
  where (select count(*) from p) >= 0 and (select count(*) from l) >= 0
`;

/** Ids and slugs of the projects written, project i at index i. */

/**
 * Writes projects 0..count-1 (3 links, 3 tags of a shared pool of 300 each) straight into the
 * tables of an empty, migrated database: the fast way to a million.
 */
export async function seedProjects(pool: Pool, count: number): Promise<WrittenProjects> {
  const now = Date.now();
  const tagIds = TAG_POOL.map(() => benchId());
  const slugsOfTags = tagSlugs(TAG_POOL);
  await pool.query(
    `insert into tags (id, name, name_en, slug)
     select * from json_to_recordset($1::json) as r(id text, name text, name_en text, slug text)`,
    [
      JSON.stringify(
        TAG_POOL.map((t, i) => ({
          id: tagIds[i],
          name: t.name,
          name_en: t.nameEn ?? null,
          slug: slugsOfTags[i],
        })),
      ),
    ],
  );

  const slugs = new Array<string>(count);
  const ids = new Array<string>(count);
  const seen = new Set<string>();
  await inChunks(pool, count, async (client, from, to) => {
    const rows = [];
    const links = [];
    const tagLinks = [];
    for (let i = from; i < to; i++) {
      const p = seededProject(i);
      const id = benchId();
      const slug = projectSlug(p);
      if (seen.has(slug)) throw new Error(`seeded slug "${slug}" is not unique`);
      seen.add(slug);
      slugs[i] = slug;
      ids[i] = id;
      rows.push({
        id,
        slug,
        name: p.name,
        name_en: p.nameEn ?? null,
        description: p.description,
        description_en: p.descriptionEn ?? null,
        content: p.content ?? null,
        content_en: p.contentEn ?? null,
        status: p.status ?? 'ACTIVE',
        source: p.source ?? null,
        // One project a second, oldest first: identity's "oldest wins" has a definite order.
        created_at: new Date(now - (count - i) * 1000).toISOString(),
      });
      for (const [position, l] of p.links.entries()) {
        links.push({
          id: benchId(),
          project_id: id,
          type: l.type,
          url: l.url,
          url_key: urlKey(l.url),
          title: l.title ?? null,
          position,
        });
      }
      for (const [position, t] of projectTagIndexes(i).entries()) {
        tagLinks.push({ project_id: id, tag_id: tagIds[t], position });
      }
    }
    await client.query(INSERT_CHUNK, [JSON.stringify(rows), JSON.stringify(links), JSON.stringify(tagLinks)]);
  });
  return { ids, slugs };
}

/**
 * Writes projects 0..count-1 through endpoint 1 of the server at `url`, 100 per request on
 * `connections` connections, as a crawler would: every index, search column and read model the
 * service maintains is as its own writes leave it. Throws on any failed item.
 */
export async function writeProjects(
  url: string,
  apiKey: string,
  count: number,
  connections = 4,
): Promise<WrittenProjects> {
  const ids = new Array<string>(count);
  const slugs = new Array<string>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const from = next;
      const to = Math.min(count, from + 100);
      next = to;
      const projects = [];
      for (let i = from; i < to; i++) projects.push(seededProject(i));
      const res = await fetch(`${url}/api/webhook/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        // Each item's id and slug come back in `results`; older servers (the one the upsert
        // comparison runs) answer them only when asked with `results: true`.
        body: JSON.stringify({ projects, results: true }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`writing projects ${from}–${to - 1}: ${res.status} ${text.slice(0, 500)}`);
      const reply = JSON.parse(text) as {
        results: { index: number; action: string; id: string | null; slug: string | null }[];
      };
      for (const r of reply.results) {
        if (r.action !== 'created' || !r.id || !r.slug)
          throw new Error(`writing project ${from + r.index}: ${r.action} (${text.slice(0, 500)})`);
        ids[from + r.index] = r.id;
        slugs[from + r.index] = r.slug;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { ids, slugs };
}

/** Projects and tasks straight into the tables of an empty, migrated database. */
export async function seed(pool: Pool, options: { projects: number; tasks: number }): Promise<SeedResult> {
  const started = performance.now();
  const written = await seedProjects(pool, options.projects);
  const projectSeconds = (performance.now() - started) / 1000;
  const { tasks, vacuumSeconds } = await seedTasks(pool, options.tasks, written);
  return {
    projects: options.projects,
    slugs: written.slugs,
    tasks,
    via: 'sql',
    seconds: (performance.now() - started) / 1000,
    projectSeconds,
    vacuumSeconds,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      projects: { type: 'string', default: '1000' },
      tasks: { type: 'string' },
      'database-url': { type: 'string' },
    },
  });
  const projects = Number(values.projects);
  const tasks = values.tasks === undefined ? DEFAULT_TASKS : Number(values.tasks);
  const url = values['database-url'] ?? process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new Error('--database-url postgres://… is required');
  if (!Number.isInteger(projects) || projects < 1 || !Number.isInteger(tasks) || tasks < 0)
    throw new Error('--projects must be an integer >= 1 and --tasks an integer >= 0');

  const handle = await connect(url, { poolSize: 3 });
  try {
    await migrateToLatest(handle.db);
    const { rows } = await handle.pool.query<{ n: number }>('select count(*)::int as n from projects');
    if (rows[0]!.n > 0) throw new Error('the database already has projects; seed an empty one');
    const result = await seed(handle.pool, { projects, tasks });
    console.log(
      `seeded ${projects} projects and ${tasks} tasks in ${result.seconds.toFixed(1)} s ` +
        `(VACUUM ANALYZE ${result.vacuumSeconds.toFixed(1)} s)`,
    );
    const searchSeconds = await prepareSearch(handle.db);
    if (searchSeconds !== undefined) console.log(`search columns filled in ${searchSeconds.toFixed(1)} s`);
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
