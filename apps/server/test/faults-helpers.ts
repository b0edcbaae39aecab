import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { uniqueUrl } from './helpers.ts';

/**
 * What the fault tests share (docs/operating.md#several-processes-crashes-and-outages): keys,
 * polling, and the versioned projects of the SIGKILL test (faults-sigkill.test.ts) with how
 * they read back from the database.
 */

export const RUN = randomBytes(3).toString('hex');
export const newKey = () => `fault-key-${randomBytes(8).toString('hex')}`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

export const BATCH = 100;
export const UPDATES_PER_BATCH = 10;
export const ACKED_BATCHES_PER_CYCLE = 3;

export interface LinkInput {
  type: string;
  url: string;
}
export interface TagInput {
  name: string;
  nameEn?: string;
}

/** Version `v` of project number `n`: every version has 3 links and 3 tags, in a version-specific order. */
export interface Version {
  n: number;
  v: number;
  input: { name: string; nameEn: string; description: string; links: LinkInput[]; tags: TagInput[] };
}

export function version(n: number, v: number): Version {
  // The CODEHOST url identifies the project; the other links and the tags change with each version.
  const codehost: LinkInput = { type: 'CODEHOST', url: `https://codehost.example.org/${RUN}/p${n}` };
  const website: LinkInput = { type: 'WEBSITE', url: uniqueUrl(`site-${n}-v${v}`) };
  const paper: LinkInput = { type: 'PAPER', url: uniqueUrl(`paper-${n}-v${v}`) };
  const shared: TagInput = { name: `fault ${RUN} shared ${n % 7}` };
  const a: TagInput = { name: `fault ${RUN} ${n} v${v} a`, nameEn: `Fault ${RUN} ${n} v${v} A` };
  const b: TagInput = { name: `fault ${RUN} ${n} v${v} b` };
  const odd = v % 2 === 1;
  return {
    n,
    v,
    input: {
      name: `故障项目 ${n} 第${v}版`,
      nameEn: `Fault ${RUN} ${n} v${v}`,
      description: `Fault injection project ${n}, version ${v}.`,
      links: odd ? [codehost, website, paper] : [paper, codehost, website],
      tags: odd ? [shared, a, b] : [b, a, shared],
    },
  };
}

const NAME_EN = new RegExp(`^Fault ${RUN} (\\d+) v(\\d+)$`);

/** One project as stored: its fields, its links and tag names in their stored order. */
export interface StoredProject {
  slug: string;
  name: string;
  name_en: string | null;
  description: string;
  links: LinkInput[];
  tags: string[];
}

/** How a project stored whole as `version` reads back. */
export const storedShape = ({ input }: Version) => ({
  name: input.name,
  name_en: input.nameEn,
  description: input.description,
  links: input.links.map(({ type, url }) => ({ type, url })),
  tags: input.tags.map((t) => t.name),
});

export interface Batch {
  projects: Version['input'][];
  versions: Version[];
  created: number;
  updated: number;
}

/** Every project as stored, by number; fails on a project that no submitted version explains. */
export async function readAll(
  query: (text: string) => Promise<StoredProject[]>,
): Promise<Map<number, { v: number; row: StoredProject }>> {
  const rows = await query(
    `select p.slug, p.name, p.name_en, p.description,
       coalesce((select json_agg(json_build_object('type', l.type, 'url', l.url) order by l.position)
                 from links l where l.project_id = p.id), '[]') as links,
       coalesce((select json_agg(t.name order by pt.position)
                 from project_tags pt join tags t on t.id = pt.tag_id where pt.project_id = p.id), '[]') as tags
     from projects p`,
  );
  const byN = new Map<number, { v: number; row: StoredProject }>();
  for (const row of rows) {
    const m = row.name_en?.match(NAME_EN);
    expect(m, `a project nobody submitted: ${JSON.stringify(row)}`).toBeTruthy();
    const n = Number(m![1]);
    expect(byN.has(n), `project ${n} stored twice`).toBe(false);
    byN.set(n, { v: Number(m![2]), row });
  }
  return byN;
}
