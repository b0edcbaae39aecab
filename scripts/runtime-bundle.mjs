// `node scripts/runtime-bundle.mjs <out>`: what the server needs at run time, after `pnpm build`,
// in one directory that runs with `node dist/main.js` and nothing else installed: the build
// (apps/server/dist), a package.json (its version is served in the OpenAPI document), and the
// two packages the build leaves outside itself (PGlite, which loads its WebAssembly from its own
// files, and swagger-ui-dist, whose files the docs page serves). The Dockerfile's runtime stage
// is this directory; apps/server/test/clean-copy.test.ts runs it.
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = resolve(process.argv[2] ?? 'runtime');
const server = fileURLToPath(new URL('../apps/server/', import.meta.url));
const EXTERNAL = ['@electric-sql/pglite', 'swagger-ui-dist'];

mkdirSync(out, { recursive: true });
cpSync(join(server, 'dist'), join(out, 'dist'), { recursive: true });
// the web console's build, found by the server as `web/` beside `dist/`
cpSync(fileURLToPath(new URL('../apps/web/dist/', import.meta.url)), join(out, 'web'), { recursive: true });
const dependencies = {};
for (const name of EXTERNAL) {
  const dir = realpathSync(join(server, 'node_modules', name));
  dependencies[name] = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  cpSync(dir, join(out, 'node_modules', name), { recursive: true, dereference: true });
}
const { version } = JSON.parse(readFileSync(join(server, 'package.json'), 'utf8'));
writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify({ name: 'project-directory-server', version, private: true, type: 'module', dependencies }, null, 2)}\n`,
);
console.log(`runtime in ${out}: node dist/main.js`);
