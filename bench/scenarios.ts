import type autocannon from 'autocannon';
import { prng, seededProject } from './data.ts';
import type { Measurement, Scenario, ScenarioOptions } from './scenario.ts';
import type { ScenarioContext } from './scenario-context.ts';
import { searchScenarios } from './search.ts';
import { seedClaimTasks } from './seed-tasks.ts';
import { ITEMS, upsertScenario } from './upsert-scenario.ts';

export type { Measurement, Scenario, ScenarioContext, ScenarioOptions };

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
