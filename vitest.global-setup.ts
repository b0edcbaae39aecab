// Says, at the start and again at the end of a run, when the database tests ran on PGlite only.
const NOTE =
  'TEST_DATABASE_URL is not set: the database tests ran on PGlite only and their PostgreSQL runs were ' +
  'skipped. Set TEST_DATABASE_URL=postgres://… (a role that may create databases) to include them.';

export default function setup(): (() => void) | undefined {
  if (process.env.TEST_DATABASE_URL) return undefined;
  console.warn(NOTE.replace('ran on', 'run on').replace('were skipped', 'are skipped'));
  return () => console.warn(`\n${NOTE}`);
}
