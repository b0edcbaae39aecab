import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const DIST = fileURLToPath(new URL('../dist', import.meta.url));

/**
 * The JavaScript that the first load of any console page fetches before it can show the search
 * page: the module script of index.html and its modulepreloads, gzipped at level 9. The other
 * pages' chunks load only when visited.
 */
export function firstLoadJs(dist = DIST): {
  files: { file: string; bytes: number; gzip: number }[];
  gzip: number;
} {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
    (m) => {
      const body = readFileSync(join(dist, m[1]!));
      return { file: m[1]!, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
    },
  );
  return { files, gzip: files.reduce((sum, f) => sum + f.gzip, 0) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, gzip } = firstLoadJs();
  for (const f of files)
    console.log(`${f.file}  ${(f.bytes / 1024).toFixed(1)} KB, ${(f.gzip / 1024).toFixed(1)} KB gzipped`);
  console.log(`first load: ${(gzip / 1024).toFixed(1)} KB of JavaScript gzipped (limit 150 KB)`);
}
