import { connect, FEED_START, migrateToLatest, readChanges, sql } from './src/index.ts';

for (const url of ['memory:', process.env.PGURL!]) {
  const h = await connect(url);
  await migrateToLatest(h.db);
  let n = 0;
  const stop = await h.listen('directory_changes', () => n++);
  await sql`insert into projects (id, name, slug, description) values ('p1','a','a','d'),('p2','b','b','d')`.execute(
    h.db,
  );
  await sql`update projects set name='x'`.execute(h.db);
  await sql`insert into discovery_tasks (id, source_url, project_id) values ('t1','u','p1')`.execute(h.db);
  await sql`update discovery_tasks set status='IN_PROGRESS'`.execute(h.db);
  await sql`update discovery_tasks set error_message='x'`.execute(h.db);
  await sql`delete from projects where id='p2'`.execute(h.db);
  const page = await readChanges(h.db, FEED_START, 100);
  console.log(
    page.changes.map((c) => `${c.xid}/${c.id} ${c.type} ${c.slug} ${c.taskId}`),
    page.heldBack,
    page.expired,
  );
  const e =
    await sql`explain select * from changes c where (c.xid, c.id) > ('5'::xid8, 3::bigint) order by c.xid, c.id limit 10`.execute(
      h.db,
    );
  console.log(e.rows);
  await new Promise((r) => setTimeout(r, 200));
  console.log('notifications', n);
  await stop();
  await h.close();
}
