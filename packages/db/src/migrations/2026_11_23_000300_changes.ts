import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// THE CHANGE FEED
// Every write to projects (insert/update/delete) and every task insert or status change adds a
// row to `changes`, written by statement-level AFTER triggers that read the statement's
// transition tables. Triggers make the feed complete by construction: every write path (the
// endpoints, batch upserts, the queue's claim/release/reap/complete, a manual SQL fix) is
// covered, in the same transaction as the write, so a rolled-back write leaves no change. Being
// statement-level and set-based, a batch of 1,000 upserts costs one INSERT … SELECT of 1,000
// rows, not 1,000 trigger calls.
//
// GAP-FREE READING
// An identity id alone is not a safe cursor: ids are taken at insert, transactions commit in any
// order, so a reader can pass id 10 before id 9 commits and never see 9. Each row is therefore
// stamped with its transaction's id (`pg_current_xact_id()`, a 64-bit xid8 that never wraps) and
// readers read only rows whose xid is below `pg_snapshot_xmin(pg_current_snapshot())`: the
// oldest transaction still running when the reading statement's snapshot was taken. Every
// transaction with a smaller xid has ended, so the rows below that line are final: none can
// appear there later. A transaction that writes later gets a larger xid than any transaction
// running now, so ordering by (xid, id) and resuming after the last (xid, id) read misses
// nothing and repeats nothing. The cursor is that pair, encoded opaquely; the index on
// (xid, id) makes "after the cursor" an index range scan.
// The price: a transaction held open delays (never loses) everything that commits after it
// started writing; on PostgreSQL that includes any open write transaction on the cluster. An
// advisory lock serialising writers was the alternative; it would serialise every write of
// the service, this costs nothing on the write path.
//
// WEBHOOKS
// Deliveries are queued by a trigger on `changes` in the same transaction (one row per change
// and subscribed webhook), so a committed change is queued for delivery exactly when it is
// committed, and a queued delivery survives any restart. Each statement that adds changes also
// sends a NOTIFY (delivered at commit, duplicates folded) that wakes long-polls and the dispatcher.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table changes (
      id bigint generated always as identity primary key,
      xid xid8 not null default pg_current_xact_id(),
      type text not null,
      at timestamptz not null default statement_timestamp(),
      project_id text,
      slug text,
      task_id text
    );
    create index changes_xid_id_idx on changes (xid, id);
    create index changes_at_idx on changes (at);

    -- The last change removed by retention: a cursor before it has missed changes (410).
    create table change_feed_state (
      singleton boolean primary key default true check (singleton),
      pruned_xid xid8 not null default '0',
      pruned_id bigint not null default 0
    );
    insert into change_feed_state default values;

    create table webhooks (
      id text primary key,
      url text not null,
      events text[] not null,
      description text,
      secret text not null,
      enabled boolean not null default true,
      consecutive_failures integer not null default 0,
      disabled_at timestamptz,
      created_at timestamptz not null default now()
    );

    create table webhook_deliveries (
      id bigint generated always as identity primary key,
      -- No foreign keys: their row-level checks would cost two lookups per queued delivery on
      -- every batch write. Deleting a webhook deletes its deliveries (deleteWebhook), retention
      -- deletes those of removed changes (pruneChanges), and the claim joins both tables.
      webhook_id text not null,
      change_id bigint not null,
      status text not null default 'PENDING' check (status in ('PENDING', 'DELIVERED', 'FAILED')),
      attempts integer not null default 0,
      -- when the next attempt is due; a claim pushes it past the attempt's lease, so a process
      -- that dies mid-delivery leaves the delivery due again when the lease runs out
      next_attempt_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      delivered_at timestamptz
    );
    create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'PENDING';
    create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id);

    create table webhook_attempts (
      id bigint generated always as identity primary key,
      webhook_id text not null,
      delivery_id bigint not null,
      change_id bigint not null,
      event text not null,
      status_code integer,
      error text,
      success boolean not null,
      duration_ms integer not null,
      at timestamptz not null default clock_timestamp()
    );
    create index webhook_attempts_webhook_idx on webhook_attempts (webhook_id, id desc);
    create index webhook_attempts_at_idx on webhook_attempts (at);

    create function changes_of_projects() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into changes (type, project_id, slug)
          select 'project.created', n.id, n.slug from new_rows n order by n.created_at, n.id;
      elsif tg_op = 'UPDATE' then
        insert into changes (type, project_id, slug)
          select 'project.updated', n.id, n.slug from new_rows n order by n.updated_at, n.id;
      else
        insert into changes (type, project_id, slug)
          select 'project.deleted', o.id, o.slug from old_rows o order by o.id;
      end if;
      return null;
    end $$;
    create trigger projects_changes_insert after insert on projects
      referencing new table as new_rows for each statement execute function changes_of_projects();
    create trigger projects_changes_update after update on projects
      referencing old table as old_rows new table as new_rows
      for each statement execute function changes_of_projects();
    create trigger projects_changes_delete after delete on projects
      referencing old table as old_rows for each statement execute function changes_of_projects();

    create function changes_of_tasks() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into changes (type, task_id, project_id, slug)
          select 'task.created', n.id, n.project_id, p.slug
          from new_rows n left join projects p on p.id = n.project_id order by n.created_at, n.id;
      else
        insert into changes (type, task_id, project_id, slug)
          select 'task.updated', n.id, n.project_id, p.slug
          from new_rows n join old_rows o on o.id = n.id
          left join projects p on p.id = n.project_id
          where n.status is distinct from o.status order by n.id;
      end if;
      return null;
    end $$;
    create trigger discovery_tasks_changes_insert after insert on discovery_tasks
      referencing new table as new_rows for each statement execute function changes_of_tasks();
    create trigger discovery_tasks_changes_update after update on discovery_tasks
      referencing old table as old_rows new table as new_rows
      for each statement execute function changes_of_tasks();

    create function changes_queue_deliveries() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from new_rows) then return null; end if;
      insert into webhook_deliveries (webhook_id, change_id)
        select w.id, c.id from new_rows c
        join webhooks w on w.enabled and (c.type = any (w.events) or '*' = any (w.events));
      perform pg_notify('directory_changes', '');
      return null;
    end $$;
    create trigger changes_queue_deliveries after insert on changes
      referencing new table as new_rows for each statement execute function changes_queue_deliveries();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger projects_changes_insert on projects;
    drop trigger projects_changes_update on projects;
    drop trigger projects_changes_delete on projects;
    drop trigger discovery_tasks_changes_insert on discovery_tasks;
    drop trigger discovery_tasks_changes_update on discovery_tasks;
    drop table webhook_attempts, webhook_deliveries, webhooks, change_feed_state, changes;
    drop function changes_of_projects, changes_of_tasks, changes_queue_deliveries;
  `.execute(db);
}
