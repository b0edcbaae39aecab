import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The part of src a file belongs to: `features/<name>`, `app`, or a shared folder (lib, components, config). */
function part(file: string): string {
  const [top, name] = relative(SRC, file).split(sep);
  return top === 'features' ? `features/${name}` : (top ?? '');
}

/** The console files a file imports (relative specifiers, resolved). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    resolve(dirname(file), m[1]!),
  );
}

describe('the console layout (bulletproof-react: shared → features → app)', () => {
  const files = sources(SRC);

  it('has no feature importing another feature', () => {
    const crossing = files.flatMap((file) =>
      part(file).startsWith('features/')
        ? imports(file)
            .filter((target) => part(target).startsWith('features/') && part(target) !== part(file))
            .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`)
        : [],
    );
    expect(crossing).toEqual([]);
  });

  it('has shared code (lib, components, config) importing neither features nor the app', () => {
    const upward = files.flatMap((file) =>
      ['lib', 'components', 'config'].includes(part(file))
        ? imports(file)
            .filter((target) => part(target).startsWith('features/') || part(target) === 'app')
            .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  it('keeps every source file under 250 lines', () => {
    const long = files
      .map((file) => [relative(SRC, file), readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 250);
    expect(long).toEqual([]);
  });
});
