import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import serverPackage from '../package.json' with { type: 'json' };

/**
 * Which build answers (docs/operating.md#metrics-get-metrics): the server's version and the
 * commit it was built from. The commit is BUILD_COMMIT when set (an image built without its git
 * history passes it), else what git says of the checkout the server runs from, else `unknown`.
 */
export interface BuildInfo {
  version: string;
  commit: string;
}

let cached: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  cached ??= { version: serverPackage.version, commit: readCommit() };
  return cached;
}

function readCommit(): string {
  const given = process.env.BUILD_COMMIT?.trim();
  if (given && /^[0-9a-f]{7,40}$/i.test(given)) return given.toLowerCase().slice(0, 12);
  try {
    const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: dirname(fileURLToPath(import.meta.url)),
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2_000,
    });
    const commit = out.toString().trim();
    return /^[0-9a-f]{7,40}$/.test(commit) ? commit : 'unknown';
  } catch {
    return 'unknown';
  }
}
