// After tsup: makes dist/index.d.ts self-contained. The service's router type, which the SDK's
// types are derived from, names two types of packages a user of the SDK does not install:
// kysely's (the database handle in the router's context) and trpc-to-openapi's (the procedures'
// meta). No client reads either, so their imports are replaced by small local declarations.
// Fails when the declarations import from any package but the SDK's own dependencies.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../dist/index.d.ts', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
let text = readFileSync(file, 'utf8');

const STAND_INS = {
  kysely: {
    Kysely: 'type Kysely<DB> = { readonly __database?: DB };',
    ColumnType:
      'type ColumnType<SelectType, InsertType = SelectType, UpdateType = SelectType> = { readonly __select__: SelectType; readonly __insert__: InsertType; readonly __update__: UpdateType };',
    Generated: 'type Generated<S> = ColumnType<S, S | undefined, S>;',
  },
  'trpc-to-openapi': {
    OpenApiMeta:
      "type OpenApiMeta = { openapi?: { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; path: string; summary?: string; description?: string; protect?: boolean; tags?: string[]; [key: string]: unknown } };",
  },
};

const added = [];
text = text.replace(/^import \{([^}]*)\} from '([^']+)';\n/gm, (line, names, from) => {
  const standIns = STAND_INS[from];
  if (!standIns) return line;
  for (const name of names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)) {
    if (!standIns[name]) throw new Error(`no stand-in for ${name} from ${from}`);
    added.push(standIns[name]);
  }
  return '';
});
if (added.length > 0) {
  const note =
    '/** Stand-ins for types of packages the SDK does not depend on (see scripts/inline-types.mjs). */\n';
  text = text.replace(/^((?:import [^\n]*\n)*)/, (imports) => `${imports}\n${note}${added.join('\n')}\n`);
}

const allowed = Object.keys(pkg.dependencies ?? {});
for (const [, from] of text.matchAll(/^import [^\n]* from '([^']+)';$/gm)) {
  if (!allowed.some((dep) => from === dep || from.startsWith(`${dep}/`))) {
    throw new Error(`dist/index.d.ts imports from ${from}, which is not a dependency of the package`);
  }
}
writeFileSync(file, text);
