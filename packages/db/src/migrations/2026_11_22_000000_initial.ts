import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// Slugs and URLs use the "C" collation: they are compared byte-for-byte (the spec's exact
// string equality), and C-collated btree indexes also serve prefix LIKE scans (tag slug suffixes).
// Timestamps keep microseconds so rows created in one statement can still be ordered
// deterministically; the API shows milliseconds.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table projects (
      id text primary key,
      name text not null,
      name_en text,
      slug text collate "C" not null unique,
      description text not null,
      description_en text,
      content text,
      content_en text,
      status text not null default 'ACTIVE' check (status in ('ACTIVE', 'ARCHIVED')),
      source text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table tags (
      id text primary key,
      name text not null unique,
      name_en text,
      slug text collate "C" not null unique,
      created_at timestamptz not null default now()
    );

    create table project_tags (
      project_id text not null references projects (id) on delete cascade,
      tag_id text not null references tags (id),
      position integer not null,
      primary key (project_id, tag_id)
    );
    create index project_tags_tag_id_idx on project_tags (tag_id);

    create table links (
      id text primary key,
      project_id text not null references projects (id) on delete cascade,
      type text not null check (type in ('WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER')),
      url text collate "C" not null,
      title text,
      position integer not null,
      unique (project_id, url)
    );
    create index links_type_url_idx on links (type, url);
    create index links_url_idx on links (url);

    create table discovery_tasks (
      id text primary key,
      source_url text collate "C" not null unique,
      source_type text not null default 'manual',
      status text not null default 'PENDING'
        check (status in ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED')),
      created_at timestamptz not null default now(),
      started_at timestamptz,
      completed_at timestamptz,
      project_id text references projects (id) on delete set null,
      exploration_data jsonb,
      exploration_summary text,
      error_message text,
      retry_count integer not null default 0,
      last_retry_at timestamptz
    );
    create index discovery_tasks_queue_idx on discovery_tasks (created_at, id);
    create index discovery_tasks_status_queue_idx on discovery_tasks (status, created_at, id);
    create index discovery_tasks_project_id_idx on discovery_tasks (project_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table discovery_tasks, links, project_tags, tags, projects`.execute(db);
}
