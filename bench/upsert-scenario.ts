import { newProject, prng, seededProject } from './data.ts';
import type { Scenario, ScenarioOptions } from './scenario.ts';
import type { ScenarioContext } from './scenario-context.ts';
import type { SeedResult } from './seed.ts';

/** The projects (or urls) of each batch a write scenario sends. */
export const ITEMS = 100;

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
