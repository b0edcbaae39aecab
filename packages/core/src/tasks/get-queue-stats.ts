import { queueStats } from '@directory/db';
import { keyedProcedure } from '../trpc.ts';
import { GetQueueStatsInput, GetQueueStatsOutput, getQueueStatsMeta } from './get-queue-stats.types.ts';

export async function readQueueStats(db: Parameters<typeof queueStats>[0]) {
  const stats = await queueStats(db);
  const ageMs = stats.oldestClaimableAt ? stats.now.getTime() - stats.oldestClaimableAt.getTime() : 0;
  return {
    counts: stats.counts,
    claimable: Math.max(0, stats.counts.PENDING - stats.delayed),
    delayed: stats.delayed,
    leased: stats.leased,
    oldestClaimableAgeSeconds: Math.max(0, Math.round(ageMs) / 1000),
    reapedTotal: stats.reapedTotal,
  };
}

export const getQueueStats = keyedProcedure
  .meta(getQueueStatsMeta)
  .input(GetQueueStatsInput)
  .output(GetQueueStatsOutput)
  .query(async ({ ctx }) => ({ success: true as const, ...(await readQueueStats(ctx.db)) }));
