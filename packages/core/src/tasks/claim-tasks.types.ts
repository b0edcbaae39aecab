import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { LeasedTask } from '../schemas/task.ts';

export const claimTasksMeta: Meta = {
  scope: 'tasks:write',
  openapi: {
    method: 'POST',
    path: '/api/discovery/tasks/claim',
    protect: true,
    tags: ['tasks'],
    summary: 'Claim the oldest claimable tasks with a lease',
    description:
      'Takes up to `limit` tasks that are PENDING and available (availableAt null or past), oldest first: ' +
      'each becomes IN_PROGRESS with startedAt now, attempt + 1, a fresh leaseToken (returned only here) ' +
      'and leaseExpiresAt = now + leaseSeconds. Concurrent claims in any processes never hand one task ' +
      'to two claimers. With `wait`, a claim that finds nothing waits up to that many seconds for a task ' +
      '(without holding a database connection). An empty `tasks` array means nothing was claimable. ' +
      'Keep the lease with heartbeat; end it with complete, PATCH or release; an expired lease is reaped.',
  },
  examples: {
    request: { limit: 1, leaseSeconds: 300, worker: 'crawler-7', wait: 10 },
    response: { success: true, tasks: [{ ...ex.exampleTask('IN_PROGRESS'), leaseToken: ex.LEASE_TOKEN }] },
  },
};

// A body sent by a typed client may carry numbers; the defaults apply when a field is left out.
export const ClaimTasksInput = z.object({
  limit: z.int().min(1).max(50).default(1),
  leaseSeconds: z.int().min(5).max(3600).default(300),
  worker: optional(text({ min: 1, max: 100 })),
  wait: z.number().min(0).max(30).default(0),
});

export const ClaimTasksOutput = z.object({ success: z.literal(true), tasks: z.array(LeasedTask) });
