import { z } from 'zod';
import type { Meta } from '../meta.ts';

export const getQueueStatsMeta: Meta = {
  scope: 'tasks:read',
  openapi: {
    method: 'GET',
    path: '/api/discovery/stats',
    protect: true,
    tags: ['tasks'],
    summary: 'Figures of the task queue',
    description:
      'Exact task counts by status; `claimable` (PENDING and available now), `delayed` (PENDING with ' +
      'availableAt in the future), `leased` (IN_PROGRESS with a lease, expired or not), the age of the ' +
      'oldest claimable task in seconds (0 when none), and how many leases the reaper has expired in ' +
      'all. The same figures are on /metrics.',
  },
  examples: {
    request: {},
    response: {
      success: true,
      counts: { PENDING: 120, IN_PROGRESS: 8, COMPLETED: 1840, FAILED: 3 },
      claimable: 117,
      delayed: 3,
      leased: 8,
      oldestClaimableAgeSeconds: 42.5,
      reapedTotal: 5,
    },
  },
};

// Takes no parameters: an unknown one is refused rather than silently ignored.
export const GetQueueStatsInput = z.strictObject({});

const count = z.number().int().min(0);

export const GetQueueStatsOutput = z.object({
  success: z.literal(true),
  counts: z.object({ PENDING: count, IN_PROGRESS: count, COMPLETED: count, FAILED: count }),
  claimable: count,
  delayed: count,
  leased: count,
  oldestClaimableAgeSeconds: z.number().min(0),
  reapedTotal: count,
});
