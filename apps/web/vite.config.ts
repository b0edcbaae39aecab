import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// No framework plugin: Vite 8 compiles TSX itself (automatic JSX runtime below); Fast Refresh
// is not worth a dependency here. Output: apps/web/dist, served by apps/server at `/`.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  // The SDK's client from its sources, by path: its package exports the tsup build (made for
  // publishing, absent from a checkout), and as a dependency it would also link the CLI's bin.
  // tsconfig.json maps the same path for tsc; what the console does not call is tree-shaken.
  resolve: {
    alias: { '@directory/sdk': fileURLToPath(new URL('../../packages/sdk/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline script in index.html: the server's Content-Security-Policy allows none.
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    rolldownOptions: {
      // TanStack Query marks its modules "use client" (for React Server Components): moot here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
