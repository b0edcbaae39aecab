import { defineConfig } from 'tsup';

// The production build of the server (`pnpm build`, run on install): one ES module per entry with
// the workspace packages and their dependencies bundled in, so that `pnpm start` runs plain
// JavaScript (no TypeScript transpiling at start). Left outside the bundle: PGlite, which loads its
// WebAssembly and data files from its own package, and swagger-ui-dist, whose files are served
// from where it is installed.
export default defineConfig({
  // dispatcher-thread: the webhook dispatcher's thread, loaded by path (src/webhooks/dispatch.ts).
  entry: {
    main: 'src/main.ts',
    migrate: 'src/migrate-cli.ts',
    'dispatcher-thread': 'src/webhooks/dispatcher-thread.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: true,
  noExternal: [/^(?!@electric-sql\/pglite|swagger-ui-dist)/],
  external: ['pg-native', 'pg-cloudflare'],
  // CommonJS dependencies inside an ES module bundle call require(): give them one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
