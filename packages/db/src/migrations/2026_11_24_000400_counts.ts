import { type Kysely, sql } from 'kysely';

// Maintained counts for browse (docs/search.md#browsing-and-search-get-apiprojects-get-apitags), so that
// the answers that count the whole directory cost the same at any size. project_facet_counts (facet,
// value, shard, n) holds the number of projects per status ('status'), per tag id ('tag') and per link
// type a project has ('linkType'), from the denormalised projects.status, tag_ids and link_types. They
// serve:
//   - the `total` of GET /api/projects without q and with no filter but status (a sum of a
//     few rows instead of counting up to 10,001 rows per request);
//   - the projectCount of GET /api/tags (instead of a GROUP BY over project_tags: 32 ms at
//     100k projects);
//   - a facet without q whose only filter is its own (the console's first page asks for all
//     three facets of the unfiltered directory: a scan of every project otherwise).
// The pattern is the queue's (2026_11_23_000200_queue.ts): one statement-level trigger adds
// each statement's net change to the writing backend's shard (pg_backend_pid() % 16), in key
// order, so concurrent writers rarely share a counter row and never deadlock on two of them; a
// count is the sum of its shards, read in the same snapshot as the rows, so it is exact.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table project_facet_counts (
      facet text not null,
      value text not null,
      shard integer not null,
      n bigint not null,
      primary key (facet, value, shard)
    );
    insert into project_facet_counts (facet, value, shard, n)
      select 'status', status, 0, count(*) from projects group by status
      union all select 'tag', t, 0, count(*) from projects, unnest(tag_ids) as t group by t
      union all select 'linkType', l, 0, count(*) from projects, unnest(link_types) as l group by l;

    create function project_facet_counts_apply(delta_facet text[], delta_value text[], delta_n bigint[])
    returns void language sql as $$
      insert into project_facet_counts as c (facet, value, shard, n)
        select d.facet, d.value, pg_backend_pid() % 16, d.n
        from unnest(delta_facet, delta_value, delta_n) as d(facet, value, n)
        where d.n <> 0
        order by d.facet, d.value
      on conflict (facet, value, shard) do update set n = c.n + excluded.n
    $$;

    create function project_facet_counts_insert() returns trigger language plpgsql as $$
    begin
      perform project_facet_counts_apply(array_agg(facet), array_agg(value), array_agg(n)) from (
        select facet, value, count(*) as n from (
          select 'status' as facet, status as value from new_rows
          union all select 'tag', unnest(tag_ids) from new_rows
          union all select 'linkType', unnest(link_types) from new_rows
        ) x group by facet, value
      ) s;
      return null;
    end $$;

    create function project_facet_counts_delete() returns trigger language plpgsql as $$
    begin
      perform project_facet_counts_apply(array_agg(facet), array_agg(value), array_agg(-n)) from (
        select facet, value, count(*) as n from (
          select 'status' as facet, status as value from old_rows
          union all select 'tag', unnest(tag_ids) from old_rows
          union all select 'linkType', unnest(link_types) from old_rows
        ) x group by facet, value
      ) s;
      return null;
    end $$;

    create function project_facet_counts_update() returns trigger language plpgsql as $$
    begin
      perform project_facet_counts_apply(array_agg(facet), array_agg(value), array_agg(n)) from (
        select facet, value, sum(d) as n from (
          select 'status' as facet, status as value, 1 as d from new_rows
          union all select 'tag', unnest(tag_ids), 1 from new_rows
          union all select 'linkType', unnest(link_types), 1 from new_rows
          union all select 'status', status, -1 from old_rows
          union all select 'tag', unnest(tag_ids), -1 from old_rows
          union all select 'linkType', unnest(link_types), -1 from old_rows
        ) x group by facet, value
      ) s;
      return null;
    end $$;

    create trigger project_facet_counts_insert after insert on projects
      referencing new table as new_rows for each statement execute function project_facet_counts_insert();
    create trigger project_facet_counts_delete after delete on projects
      referencing old table as old_rows for each statement execute function project_facet_counts_delete();
    create trigger project_facet_counts_update after update on projects
      referencing old table as old_rows new table as new_rows
      for each statement execute function project_facet_counts_update();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger project_facet_counts_insert on projects;
    drop trigger project_facet_counts_delete on projects;
    drop trigger project_facet_counts_update on projects;
    drop function project_facet_counts_insert(), project_facet_counts_delete(), project_facet_counts_update(),
      project_facet_counts_apply(text[], text[], bigint[]);
    drop table project_facet_counts;
  `.execute(db);
}
