import { type Kysely, sql } from 'kysely';

// Maintained counts for browse (EXTENSIONS A), so that the answers that need a count of the
// whole directory cost the same at any size:
//   - project_counts (status, shard, n): the unfiltered `total` of GET /api/projects (and the
//     total with only a status filter) is a sum of at most 2 × 16 rows, not a count of up to
//     10,001 rows per request;
//   - tag_counts (tag_id, shard, n): GET /api/tags reads each tag's project count from here,
//     not a GROUP BY over project_tags (which grew with the directory: 32 ms at 100k projects).
// The pattern is the queue's (2026_11_23_000200_queue.ts): statement-level triggers add each
// statement's net change to the writing backend's shard (pg_backend_pid() % 16), in key order,
// so concurrent writers rarely share a counter row and never deadlock on two of them; a count
// is the sum of its shards, read in the same snapshot as the rows, so it is exact.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table project_counts (
      status text not null,
      shard integer not null,
      n bigint not null,
      primary key (status, shard)
    );
    insert into project_counts (status, shard, n) select status, 0, count(*) from projects group by status;

    create table tag_counts (
      tag_id text not null references tags (id) on delete cascade,
      shard integer not null,
      n bigint not null,
      primary key (tag_id, shard)
    );
    insert into tag_counts (tag_id, shard, n) select tag_id, 0, count(*) from project_tags group by tag_id;

    create function project_counts_apply(delta_status text[], delta_n bigint[]) returns void
    language sql as $$
      insert into project_counts as c (status, shard, n)
        select d.status, pg_backend_pid() % 16, d.n
        from unnest(delta_status, delta_n) as d(status, n)
        where d.n <> 0
        order by d.status
      on conflict (status, shard) do update set n = c.n + excluded.n
    $$;

    create function project_counts_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform project_counts_apply(array_agg(status), array_agg(n))
          from (select status, count(*) as n from new_rows group by status) s;
      elsif tg_op = 'DELETE' then
        perform project_counts_apply(array_agg(status), array_agg(-n))
          from (select status, count(*) as n from old_rows group by status) s;
      else
        perform project_counts_apply(array_agg(status), array_agg(n))
          from (
            select status, sum(d) as n from (
              select status, 1 as d from new_rows union all select status, -1 as d from old_rows
            ) x group by status
          ) s;
      end if;
      return null;
    end $$;

    create trigger project_counts_insert after insert on projects
      referencing new table as new_rows for each statement execute function project_counts_change();
    create trigger project_counts_delete after delete on projects
      referencing old table as old_rows for each statement execute function project_counts_change();
    create trigger project_counts_update after update on projects
      referencing old table as old_rows new table as new_rows for each statement execute function project_counts_change();

    create function tag_counts_apply(delta_tag text[], delta_n bigint[]) returns void
    language sql as $$
      insert into tag_counts as c (tag_id, shard, n)
        select d.tag_id, pg_backend_pid() % 16, d.n
        from unnest(delta_tag, delta_n) as d(tag_id, n)
        where d.n <> 0
        order by d.tag_id
      on conflict (tag_id, shard) do update set n = c.n + excluded.n
    $$;

    create function tag_counts_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform tag_counts_apply(array_agg(tag_id), array_agg(n))
          from (select tag_id, count(*) as n from new_rows group by tag_id) s;
      elsif tg_op = 'DELETE' then
        perform tag_counts_apply(array_agg(tag_id), array_agg(-n))
          from (select tag_id, count(*) as n from old_rows group by tag_id) s;
      else
        perform tag_counts_apply(array_agg(tag_id), array_agg(n))
          from (
            select tag_id, sum(d) as n from (
              select tag_id, 1 as d from new_rows union all select tag_id, -1 as d from old_rows
            ) x group by tag_id
          ) s;
      end if;
      return null;
    end $$;

    create trigger tag_counts_insert after insert on project_tags
      referencing new table as new_rows for each statement execute function tag_counts_change();
    create trigger tag_counts_delete after delete on project_tags
      referencing old table as old_rows for each statement execute function tag_counts_change();
    create trigger tag_counts_update after update on project_tags
      referencing old table as old_rows new table as new_rows for each statement execute function tag_counts_change();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger project_counts_insert on projects;
    drop trigger project_counts_delete on projects;
    drop trigger project_counts_update on projects;
    drop trigger tag_counts_insert on project_tags;
    drop trigger tag_counts_delete on project_tags;
    drop trigger tag_counts_update on project_tags;
    drop function project_counts_change(), project_counts_apply(text[], bigint[]),
      tag_counts_change(), tag_counts_apply(text[], bigint[]);
    drop table project_counts, tag_counts;
  `.execute(db);
}
