import { CHANGES_CHANNEL, writePins } from '@directory/db';
import { pinQuery } from '@directory/search';
import { keyedProcedure } from '../trpc.ts';
import { PinsOutput, ReplacePinsInput, replacePinsMeta } from './pins.types.ts';

/**
 * Stored whole, each query normalised as search normalises it (docs/search.md#curated-results-pins);
 * the notification wakes every process's read model, which re-reads them.
 */
export const replacePins = keyedProcedure
  .meta(replacePinsMeta)
  .input(ReplacePinsInput)
  .output(PinsOutput)
  .mutation(async ({ ctx, input }) => {
    const pins = input.pins.map((pin) => ({
      query: pinQuery(pin.query),
      first: [...new Set(pin.first.map((slug) => slug.trim()))],
      hide: [...new Set((pin.hide ?? []).map((slug) => slug.trim()))],
    }));
    const stored = await writePins(ctx.db, pins, CHANGES_CHANNEL);
    await ctx.readModel?.refreshPins();
    return { success: true as const, pins: stored.pins };
  });
