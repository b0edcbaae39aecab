import { readPins } from '@directory/db';
import { newerVersion } from '../read-model/build.ts';
import { publicProcedure, readDbOf } from '../trpc.ts';
import { GetPinsInput, getPinsMeta, PinsOutput } from './pins.types.ts';

export const getPins = publicProcedure
  .meta(getPinsMeta)
  .input(GetPinsInput)
  .output(PinsOutput)
  .query(async ({ ctx }) => {
    let pins = await readPins(readDbOf(ctx));
    // the pins this process replaced, when the standby has not replayed them yet (read-your-writes,
    // docs/operating.md#read-your-writes)
    const known = ctx.readModel?.pinsVersion ?? '';
    if (known !== '' && newerVersion(known, pins.version)) pins = await readPins(ctx.db);
    return { success: true as const, pins: pins.pins };
  });
