import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The part of madge's API used here (the package ships no types). */
type Madge = (
  paths: string[],
  config: Record<string, unknown>,
) => Promise<{ circular(): string[][]; obj(): Record<string, string[]>; warnings(): { skipped: string[] } }>;
const madge = createRequire(import.meta.url)('madge') as Madge;

/** The workspace packages by the names they are imported with, mapped to their sources. */
const WORKSPACE_PATHS = {
  '@directory/core': ['packages/core/src/index.ts'],
  '@directory/core/server': ['packages/core/src/server.ts'],
  '@directory/core/lock-fields': ['packages/core/src/schemas/lock-fields.ts'],
  '@directory/core/url-rule': ['packages/core/src/schemas/url-rule.ts'],
  '@directory/core/scopes': ['packages/core/src/domain/scopes.ts'],
  '@directory/db': ['packages/db/src/index.ts'],
  '@directory/search': ['packages/search/src/index.ts'],
  '@directory/sdk': ['packages/sdk/src/index.ts'],
};

const SOURCES = ['apps', 'packages', 'bench', 'scripts', 'test-support', 'examples'];

/**
 * No import cycle anywhere in the sources, tests, benchmarks and scripts, type-only
 * imports included (a cycle of types still ties two files' meanings together), and across
 * packages too (a workspace package's name resolves to its sources). madge
 * (`npx madge --circular`) finds them; a cycle fails this test, naming its files.
 */
describe('the import graph', () => {
  it('has no cycle', async () => {
    const result = await madge(
      SOURCES.map((dir) => `${root}${dir}`),
      {
        baseDir: root,
        fileExtensions: ['ts', 'tsx', 'mts', 'mjs', 'js'],
        excludeRegExp: [/(^|\/)(node_modules|dist|test-artifacts|generated-client)\//, /\.d\.ts$/],
        tsConfig: {
          compilerOptions: {
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            allowImportingTsExtensions: true,
            baseUrl: root,
            paths: WORKSPACE_PATHS,
          },
        },
      },
    );
    const graph = result.obj();
    // The graph is the whole tree, and a workspace package's name leads to its sources.
    expect(Object.keys(graph).length).toBeGreaterThan(300);
    expect(graph['apps/server/src/serve.ts']).toEqual(
      expect.arrayContaining(['packages/core/src/server.ts', 'packages/db/src/index.ts']),
    );
    expect(result.circular().map((cycle) => cycle.join(' > '))).toEqual([]);
  }, 120_000);
});
