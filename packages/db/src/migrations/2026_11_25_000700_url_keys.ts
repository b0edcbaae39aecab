import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// URL KEYS (docs/curation.md#same-project-other-spelling)
// Every link url and task sourceUrl gets a key beside it: one function of the URL (core's
// url-key.ts) under which spellings of one thing are equal. Comparisons move from the url to
// the key, so the indexes and unique constraints move with them:
//   - links: unique (project_id, url_key) replaces unique (project_id, url) (a project holds a
//     key once); (type, url_key) serves identity and endpoint 10, (url_key) endpoint 9, by-url
//     and duplicates. The url indexes go: nothing looks links up by spelling any more.
//   - discovery_tasks: unique (url_key) replaces unique (source_url): one task per key, which
//     still decides concurrent creates across processes (ON CONFLICT).
// The key is a function written in TypeScript (punycode, percent-encoding, per-host rules), so
// this migration cannot compute it: the columns start null and the backfill
// (backfill/url-keys.ts) fills them right after the migrations, under the same lock, before a
// server answers. Nulls are distinct in unique indexes, so existing rows never conflict here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table links add column url_key text collate "C";
    alter table links drop constraint links_project_id_url_key;
    drop index links_type_url_idx;
    drop index links_url_idx;
    create unique index links_project_url_key_idx on links (project_id, url_key);
    create index links_type_url_key_idx on links (type, url_key);
    create index links_url_key_idx on links (url_key);

    alter table discovery_tasks add column url_key text collate "C";
    alter table discovery_tasks drop constraint discovery_tasks_source_url_key;
    create unique index discovery_tasks_url_key_idx on discovery_tasks (url_key);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index discovery_tasks_url_key_idx;
    alter table discovery_tasks drop column url_key;
    alter table discovery_tasks add constraint discovery_tasks_source_url_key unique (source_url);
    drop index links_url_key_idx, links_type_url_key_idx, links_project_url_key_idx;
    alter table links drop column url_key;
    alter table links add constraint links_project_id_url_key unique (project_id, url);
    create index links_type_url_idx on links (type, url);
    create index links_url_idx on links (url);
  `.execute(db);
}
