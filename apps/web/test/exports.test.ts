import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('the console sources', () => {
  // An export nothing imports is dead code that still looks like an interface to keep.
  it('export only what another console file imports', () => {
    const files = sources(SRC);
    const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
    const unused: string[] = [];
    for (const [file, text] of texts) {
      for (const m of text.matchAll(
        /^export (?:async )?(?:const|let|function|class|type|interface|enum) (\w+)/gm,
      )) {
        const name = m[1] as string;
        const imported = [...texts].some(
          ([other, t]) => other !== file && new RegExp(`import[^;]*\\b${name}\\b[^;]*from`, 's').test(t),
        );
        if (!imported) unused.push(`${relative(SRC, file)}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
