import { type Kysely, sql } from 'kysely';

// The work queue (docs/workers.md#running-workers): leases on discovery tasks, and per-status counters that
// make endpoint 5's exact total cost the same at any table size.
//
// Leases: a claim sets lease_token/lease_expires_at; every status change away from
// IN_PROGRESS clears them. attempt counts claims; available_at delays a task (backoff).
//
// Indexes are partial on the statuses they serve, so a claim or a reap reads only PENDING or
// leased rows however many COMPLETED tasks the table holds.
//
// Counters: discovery_task_counts holds (status, shard, n); statement-level triggers add each
// statement's net change per status to the row of the writing backend's shard
// (pg_backend_pid() % 32). Two concurrent transactions touch the same counter row only when
// their backends share a shard, so concurrent writers do not queue on one hot row; the exact
// count of a status is the sum of its shards, read in the same snapshot as the rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table discovery_tasks
      add column attempt integer not null default 0,
      add column lease_token text,
      add column lease_expires_at timestamptz,
      add column lease_seconds integer,
      add column worker text,
      add column available_at timestamptz;

    create index discovery_tasks_claim_idx on discovery_tasks (created_at, id) where status = 'PENDING';
    create index discovery_tasks_delayed_idx on discovery_tasks (available_at)
      where status = 'PENDING' and available_at is not null;
    create index discovery_tasks_lease_idx on discovery_tasks (lease_expires_at)
      where status = 'IN_PROGRESS' and lease_token is not null;

    create table discovery_task_counts (
      status text not null,
      shard integer not null,
      n bigint not null,
      primary key (status, shard)
    );
    insert into discovery_task_counts (status, shard, n)
      select status, 0, count(*) from discovery_tasks group by status;

    create function discovery_task_counts_apply(delta_status text[], delta_n bigint[]) returns void
    language sql as $$
      insert into discovery_task_counts as c (status, shard, n)
        select d.status, pg_backend_pid() % 32, d.n
        from unnest(delta_status, delta_n) as d(status, n)
        where d.n <> 0
        order by d.status
      on conflict (status, shard) do update set n = c.n + excluded.n
    $$;

    create function discovery_task_counts_insert() returns trigger language plpgsql as $$
    begin
      perform discovery_task_counts_apply(array_agg(status), array_agg(n))
        from (select status, count(*) as n from new_rows group by status) s;
      return null;
    end $$;

    create function discovery_task_counts_delete() returns trigger language plpgsql as $$
    begin
      perform discovery_task_counts_apply(array_agg(status), array_agg(-n))
        from (select status, count(*) as n from old_rows group by status) s;
      return null;
    end $$;

    create function discovery_task_counts_update() returns trigger language plpgsql as $$
    begin
      perform discovery_task_counts_apply(array_agg(status), array_agg(n))
        from (
          select status, sum(d) as n from (
            select status, 1 as d from new_rows
            union all
            select status, -1 as d from old_rows
          ) x group by status
        ) s;
      return null;
    end $$;

    create trigger discovery_task_counts_insert after insert on discovery_tasks
      referencing new table as new_rows
      for each statement execute function discovery_task_counts_insert();
    create trigger discovery_task_counts_delete after delete on discovery_tasks
      referencing old table as old_rows
      for each statement execute function discovery_task_counts_delete();
    create trigger discovery_task_counts_update after update on discovery_tasks
      referencing old table as old_rows new table as new_rows
      for each statement execute function discovery_task_counts_update();

    create table queue_totals (name text primary key, value bigint not null);
    insert into queue_totals (name, value) values ('reaped', 0);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger discovery_task_counts_insert on discovery_tasks;
    drop trigger discovery_task_counts_delete on discovery_tasks;
    drop trigger discovery_task_counts_update on discovery_tasks;
    drop function discovery_task_counts_insert(), discovery_task_counts_delete(),
      discovery_task_counts_update(), discovery_task_counts_apply(text[], bigint[]);
    drop table discovery_task_counts, queue_totals;
    drop index discovery_tasks_claim_idx, discovery_tasks_delayed_idx, discovery_tasks_lease_idx;
    alter table discovery_tasks
      drop column attempt, drop column lease_token, drop column lease_expires_at,
      drop column lease_seconds, drop column worker, drop column available_at;
  `.execute(db);
}
