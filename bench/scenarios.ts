import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { DatabaseHandle } from '../packages/db/src/index.ts';
import { newProject, prng, seededProject } from './data.ts';
import type { Measurement, Scenario, ScenarioOptions, Tally } from './scenario.ts';
import { searchScenarios } from './search.ts';
import { type SeedResult, seedClaimTasks } from './seed.ts';

export type { Measurement, Scenario, ScenarioOptions };

export interface ScenarioContext {
  apiKey: string;
  seed: SeedResult;
  pool: DatabaseHandle['pool'];
  runTag: string;
  /**
   * A named key (docs/keys-and-limits.md#named-keys-and-scopes) with a limit of its own, for the keyed GET
   * (`slug-keyed`).
   */
  namedKey?: string;
}

const ITEMS = 100;

/** Every scenario, in the order they run: reads first, then the writes that change the data. */
export function scenarios(ctx: ScenarioContext, options: ScenarioOptions): Scenario[] {
  const { apiKey, seed, runTag } = ctx;
  const { slugs, tasks } = seed;
  const n = slugs.length;
  const keyed = { 'x-api-key': apiKey };
  const json = { 'content-type': 'application/json', 'x-api-key': apiKey };
  const pending = tasks.filter((t) => t.status === 'PENDING').length;

  const getBySlug = (target: Scenario['target']): Scenario => ({
    key: target === 'baseline' ? 'baseline-slug' : 'slug',
    label: target === 'baseline' ? 'baseline: GET project by slug' : 'GET /api/projects/{slug}',
    target,
    connections: options.connections,
    requests: () => {
      const random = prng(1);
      return [
        {
          method: 'GET',
          setupRequest: (req) => {
            req.path = `/api/projects/${encodeURIComponent(slugs[Math.floor(random() * n)]!)}`;
            return req;
          },
        },
      ];
    },
  });

  // What a key costs a read (its lookup and its rate limit), keyed against unkeyed,
  // on the same 5,000 slugs (warm in the detail cache after the warm-up: the key's cost is not
  // hidden under a database read). Run one after the other; `slug-unkeyed` first.
  const slugOfFew = (keyedBy: string | undefined): Scenario => ({
    key: keyedBy ? 'slug-keyed' : 'slug-unkeyed',
    label: keyedBy
      ? 'GET /api/projects/{slug} with a named key (Bearer, its own limit)'
      : 'GET /api/projects/{slug} without a key (same 5,000 slugs)',
    target: 'server',
    connections: options.connections,
    requests: () => {
      const random = prng(2);
      const few = Math.min(n, 5000);
      return [
        {
          method: 'GET',
          ...(keyedBy && { headers: { authorization: `Bearer ${keyedBy}` } }),
          setupRequest: (req) => {
            req.path = `/api/projects/${encodeURIComponent(slugs[Math.floor(random() * few)]!)}`;
            return req;
          },
        },
      ];
    },
  });

  // Related projects (docs/search.md#related-projects) of the same 5,000 slugs as slug-unkeyed:
  // the target is at least half of its rate, each answer computed afresh (RESPONSE_CACHE_MB=0).
  const related: Scenario = {
    key: 'related',
    label: 'GET /api/projects/{slug}/related (same 5,000 slugs)',
    target: 'server',
    connections: options.connections,
    requests: () => {
      const random = prng(2);
      const few = Math.min(n, 5000);
      return [
        {
          method: 'GET',
          setupRequest: (req) => {
            req.path = `/api/projects/${encodeURIComponent(slugs[Math.floor(random() * few)]!)}/related`;
            return req;
          },
        },
      ];
    },
  };

  const listTasks = (deep: boolean, status: 'PENDING' | undefined): Scenario => {
    const total = status ? pending : tasks.length;
    const offset = deep ? Math.floor(total * 0.9) : 0;
    return {
      key: `list${deep ? '-deep' : '-0'}${status ? '-pending' : ''}`,
      label: `GET /api/discovery/tasks offset ${offset}${status ? ` status=${status}` : ''}`,
      target: 'server',
      connections: options.connections,
      requests: () => [
        {
          method: 'GET',
          path: `/api/discovery/tasks?limit=100&offset=${offset}${status ? `&status=${status}` : ''}`,
          headers: keyed,
        },
      ],
    };
  };

  // Bodies of the duplicate checks are made before the run (the load generator shares the CPU).
  const cycle = (path: string, bodies: string[]): autocannon.Request[] => {
    let next = 0;
    return [
      {
        method: 'POST',
        path,
        headers: json,
        setupRequest: (req) => {
          req.body = bodies[next++ % bodies.length]!;
          return req;
        },
      },
    ];
  };

  // A third urls of seeded tasks (any status), a third links of seeded projects, a third new.
  const taskDuplicates = (() => {
    const random = prng(2);
    return Array.from({ length: 256 }, (_, b) => {
      const urls = Array.from({ length: ITEMS }, (_, k) => {
        const r = random();
        if (r < 1 / 3) return tasks[Math.floor(random() * tasks.length)]!.sourceUrl;
        if (r < 2 / 3) {
          const p = seededProject(Math.floor(random() * n));
          return p.links[Math.floor(random() * p.links.length)]!.url;
        }
        return `https://new.example.org/${b}/${k}`;
      });
      return JSON.stringify({ urls });
    });
  })();

  // Half all four keys of a seeded project, a fifth website and slug only, the rest new.
  const projectDuplicates = (() => {
    const random = prng(3);
    return Array.from({ length: 256 }, (_, b) => {
      const projects = Array.from({ length: ITEMS }, (_, k) => {
        const r = random();
        const i = Math.floor(random() * n);
        const p = seededProject(i);
        const modelhub = p.links.find((l) => l.type === 'MODELHUB')?.url;
        if (r < 0.5)
          return {
            codehostUrl: p.links[0]!.url,
            websiteUrl: p.links[1]!.url,
            slug: slugs[i],
            ...(modelhub && { modelhubUrl: modelhub }),
          };
        if (r < 0.7) return { websiteUrl: p.links[1]!.url, slug: slugs[i] };
        return {
          codehostUrl: `https://github.com/new-${b}/p-${k}`,
          modelhubUrl: `https://huggingface.co/new-${b}/m-${k}`,
          websiteUrl: `https://new-${b}-${k}.example.net/`,
          slug: `no-such-project-${b}-${k}`,
        };
      });
      return JSON.stringify({ projects });
    });
  })();

  let claimIds: string[] = [];
  let nextClaim = 0;

  return [
    getBySlug('baseline'),
    getBySlug('server'),
    slugOfFew(undefined),
    ...(ctx.namedKey ? [slugOfFew(ctx.namedKey)] : []),
    related,
    {
      key: 'task',
      label: 'GET /api/discovery/tasks/{id}',
      target: 'server',
      connections: options.connections,
      requests: () => {
        const random = prng(5);
        return [
          {
            method: 'GET',
            setupRequest: (req) => {
              req.path = `/api/discovery/tasks/${tasks[Math.floor(random() * tasks.length)]!.id}`;
              return req;
            },
          },
        ];
      },
    },
    listTasks(false, undefined),
    listTasks(false, 'PENDING'),
    listTasks(true, undefined),
    listTasks(true, 'PENDING'),
    ...searchScenarios(options),
    {
      key: 'dup-tasks',
      label: 'POST /api/discovery/check-duplicates ×100',
      target: 'server',
      connections: options.batchConnections,
      items: (ok) => ok * ITEMS,
      requests: () => cycle('/api/discovery/check-duplicates', taskDuplicates),
    },
    {
      key: 'dup-projects',
      label: 'POST /api/webhook/check-duplicates ×100',
      target: 'server',
      connections: options.batchConnections,
      items: (ok) => ok * ITEMS,
      requests: () => cycle('/api/webhook/check-duplicates', projectDuplicates),
    },
    upsertScenario(ctx, options),
    {
      key: 'claim',
      label: 'PATCH /api/discovery/tasks/{id} PENDING→IN_PROGRESS',
      target: 'server',
      connections: options.connections,
      prepare: async () => {
        const count = Math.ceil(options.claimsPerSecond * (options.duration + options.warmup));
        claimIds = await seedClaimTasks(ctx.pool, count, runTag);
      },
      requests: (tally) => [
        {
          method: 'PATCH',
          headers: json,
          body: JSON.stringify({ status: 'IN_PROGRESS' }),
          setupRequest: (req) => {
            // Each claim takes the next PENDING task; past the last one it repeats a claimed
            // task (a 409), and says so.
            let id = claimIds[nextClaim++];
            if (id === undefined) {
              tally.notes.add(`ran out of the ${claimIds.length} PENDING tasks seeded for claims`);
              id = claimIds[0]!;
            }
            req.path = `/api/discovery/tasks/${id}`;
            return req;
          },
        },
      ],
    },
  ];
}

/**
 * Upserts: each batch alternates 50 new projects and 50 updates of seeded ones. Updates walk
 * a shuffled order of the seeded projects, so batches in flight never touch the same project;
 * each pass changes their descriptions and one tag (revision). State carries over warm-up.
 */
export function upsertScenario(
  ctx: Pick<ScenarioContext, 'apiKey' | 'runTag'> & { seed: Pick<SeedResult, 'slugs'> },
  options: Pick<ScenarioOptions, 'upsertConnections'>,
): Scenario {
  const { runTag } = ctx;
  const n = ctx.seed.slugs.length;
  const json = { 'content-type': 'application/json', 'x-api-key': ctx.apiKey };
  const order = Array.from({ length: n }, (_, i) => i);
  const shuffle = prng(4);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(shuffle() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  let updateCursor = 0;
  let fresh = 0;
  return {
    key: 'upsert',
    label: 'POST /api/webhook/projects ×100 (50 new, 50 updates)',
    target: 'server',
    connections: options.upsertConnections,
    items: (_ok, tally) => tally.created + tally.updated,
    requests: (tally) => [
      {
        method: 'POST',
        path: '/api/webhook/projects',
        headers: json,
        setupRequest: (req) => {
          const projects = [];
          for (let k = 0; k < ITEMS / 2; k++) {
            const c = updateCursor++;
            projects.push(newProject(runTag, fresh++), seededProject(order[c % n]!, 1 + Math.floor(c / n)));
          }
          req.body = JSON.stringify({ projects });
          return req;
        },
        onResponse: (status, body) => {
          if (status !== 200) return;
          const reply = JSON.parse(body) as {
            created: number;
            updated: number;
            failed: number;
            errors: { error: string }[];
          };
          tally.created += reply.created;
          tally.updated += reply.updated;
          tally.failed += reply.failed;
          if (reply.errors[0]) tally.notes.add(`failed item: ${reply.errors[0].error}`);
        },
      },
    ],
  };
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

async function cannon(url: string, scenario: Scenario, seconds: number, tally: Tally) {
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections: scenario.connections,
    duration: seconds,
    timeout: 30,
    requests: scenario.requests(tally),
  });
  // autocannon's own histogram keeps whole milliseconds; these are exact.
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
  });
  const result = await instance;
  return { result, latencies };
}

/** User + system CPU seconds of a process so far, from /proc (Linux; USER_HZ is 100); undefined elsewhere. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

const newTally = (): Tally => ({ created: 0, updated: 0, failed: 0, notes: new Set() });

/** Warms the target up for `warmup` seconds, then measures for `duration` seconds. */
export async function measure(
  scenario: Scenario,
  target: { url: string; pid: number },
  options: Pick<ScenarioOptions, 'duration' | 'warmup'> & { onMeasure?: () => void },
): Promise<Measurement> {
  const { url, pid } = target;
  await scenario.prepare?.();
  if (options.warmup > 0) await cannon(url, scenario, options.warmup, newTally());
  options.onMeasure?.();
  const tally = newTally();
  const cpuBefore = cpuSeconds(pid);
  const { result, latencies } = await cannon(url, scenario, options.duration, tally);
  const cpuAfter = cpuSeconds(pid);
  const sorted = Float64Array.from(latencies).sort();
  const status: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) status[code] = Number(count);
  const seconds = result.duration;
  const ok = Object.entries(status)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  const items = scenario.items?.(ok, tally);
  const notes = [...tally.notes];
  if (tally.created + tally.updated + tally.failed > 0)
    notes.push(`${tally.created} created, ${tally.updated} updated, ${tally.failed} failed`);
  return {
    key: scenario.key,
    label: scenario.label,
    target: scenario.target,
    connections: scenario.connections,
    seconds,
    responses: latencies.length,
    reqPerSec: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    status,
    ...(cpuBefore !== undefined &&
      cpuAfter !== undefined &&
      latencies.length > 0 && { cpuMsPerRequest: ((cpuAfter - cpuBefore) * 1000) / latencies.length }),
    non2xx: result.non2xx,
    errors: result.errors,
    ...(items !== undefined && { itemsPerSec: items / seconds }),
    notes,
  };
}
