// `pnpm start`: runs the built server (apps/server/dist/main.js) in this process. The build is made
// on install (`pnpm build`); it is made again here first only when it is missing or older than a
// source file of the server or of the packages it bundles, so that a start never runs stale code.
// A container image runs `node apps/server/dist/main.js` directly.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = join(root, 'apps', 'server');
const built = join(server, 'dist', 'main.js');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const sources = [join(server, 'src'), join(server, 'tsup.config.ts'), join(server, 'package.json')];
for (const pkg of readdirSync(join(root, 'packages'))) sources.push(join(root, 'packages', pkg, 'src'));
const sourceTime = Math.max(
  ...sources.map((p) =>
    statSync(p, { throwIfNoEntry: false })?.isDirectory()
      ? newest(p)
      : (statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0),
  ),
);
const builtTime = statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;

if (builtTime < sourceTime) {
  console.error(
    builtTime ? 'Sources changed since the last build: building the server…' : 'Building the server…',
  );
  const tsup = join(server, 'node_modules', '.bin', 'tsup');
  const result = spawnSync(tsup, ['--silent'], { cwd: server, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The server build failed (see above).');
    process.exit(1);
  }
}
await import(pathToFileURL(built).href);
