import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from '../src/connect.ts';
import { migrateToLatest } from '../src/migrate.ts';
import { baseTables } from '../src/move/compare.ts';
import { MoveRefused, moveDatabase } from '../src/move/move.ts';
import { KEPT_TABLES, MOVED_TABLES, unknownTables } from '../src/move/tables.ts';

// The mover's list of tables (docs/operating.md#moving-to-postgresql) against the tables the
// migrations leave, read from information_schema: a migration that adds a table fails here until
// the mover knows it. The move itself, into PostgreSQL, is apps/server/test/move.test.ts.

describe('the tables a move copies', () => {
  it('are every table the migrations leave, each named once', async () => {
    const handle = await connect('memory:');
    try {
      await migrateToLatest(handle.db);
      const present = await baseTables(handle.db);
      expect(unknownTables(present)).toEqual([]);
      const listed = [...MOVED_TABLES.map((t) => t.name), ...Object.keys(KEPT_TABLES)];
      expect(new Set(listed).size).toBe(listed.length);
      expect([...listed].sort()).toEqual(present);
    } finally {
      await handle.close();
    }
  });

  it('lists a table after every table its foreign keys name', async () => {
    const handle = await connect('memory:');
    try {
      await migrateToLatest(handle.db);
      const { rows } = await sql<{ from: string; to: string }>`
        select conrelid::regclass::text as from, confrelid::regclass::text as to
        from pg_constraint where contype = 'f' and connamespace = current_schema()::regnamespace
      `.execute(handle.db);
      const order = MOVED_TABLES.map((t) => t.name);
      for (const { from, to } of rows) {
        if (from === to) expect(MOVED_TABLES.find((t) => t.name === from)?.selfReference, from).toBe(true);
        else expect(order.indexOf(from), `${from} → ${to}`).toBeGreaterThan(order.indexOf(to));
      }
    } finally {
      await handle.close();
    }
  });

  it('refuses a source with a table it does not know, and makes nothing in the target', async () => {
    const [source, target] = [await connect('memory:'), await connect('memory:')];
    try {
      await migrateToLatest(source.db);
      await sql`create table added_later (id int primary key)`.execute(source.db);
      const moving = moveDatabase(source.db, target.db);
      await expect(moving).rejects.toThrow(MoveRefused);
      await expect(moving).rejects.toThrow(
        /tables the mover does not know: added_later\. Add them to packages\/db\/src\/move\/tables\.ts/,
      );
      expect(await baseTables(target.db)).toEqual([]);
    } finally {
      await source.close();
      await target.close();
    }
  });

  it('refuses a target holding data, naming it, and changes nothing there', async () => {
    const [source, target] = [await connect('memory:'), await connect('memory:')];
    try {
      await migrateToLatest(source.db);
      await migrateToLatest(target.db);
      await sql`insert into server_secrets (name, value) values ('cursor', 'x')`.execute(target.db);
      await sql`update search_synonyms set sets = '[["a","b"]]'`.execute(target.db);
      await expect(moveDatabase(source.db, target.db)).rejects.toThrow(
        'The target is not empty: search_synonyms (1 row), server_secrets (1 row). Nothing was changed there',
      );
      // a freshly migrated database is empty: its singletons and zero totals are not data
      await sql`delete from server_secrets`.execute(target.db);
      await sql`update search_synonyms set sets = '[]'`.execute(target.db);
      await sql`insert into projects (id, name, slug, description, status) values ('p1', 'P', 'p', 'a project', 'ACTIVE')`.execute(
        source.db,
      );
      const report = await moveDatabase(source.db, target.db);
      expect(report.tables.find((t) => t.name === 'projects')?.rows).toBe(1);
    } finally {
      await source.close();
      await target.close();
    }
  });
});
