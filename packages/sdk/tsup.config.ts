import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The CLI entry is built once src/cli.ts exists (it is written separately from the SDK).
const cli = new URL('./src/cli.ts', import.meta.url);

export default defineConfig({
  entry: { index: 'src/index.ts', ...(existsSync(cli) && { cli: 'src/cli.ts' }) },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  dts: {
    entry: { index: 'src/index.ts' },
    // The service's types come from private workspace packages, which a user of the package
    // does not have: mapped to their sources here, they are inlined into dist/index.d.ts instead
    // of imported (a workspace package reached through node_modules would stay external).
    compilerOptions: {
      paths: {
        '@directory/core': ['../core/src/index.ts'],
        '@directory/db': ['../db/src/index.ts'],
        '@directory/search': ['../search/src/index.ts'],
      },
    },
  },
});
