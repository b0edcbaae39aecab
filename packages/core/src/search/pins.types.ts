import { pinQuery } from '@directory/search';
import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { queryObject } from '../schemas/query.ts';

const EXAMPLE = [
  { query: 'qwen', first: ['qwen'], hide: ['qwen-webui-mirror'] },
  { query: '千问', first: ['qwen'], hide: [] },
];

export const getPinsMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/search/pins',
    protect: false,
    tags: ['search'],
    summary: 'The curated results (pins)',
    description:
      'For a query (normalised as search normalises it: its words, lower case, without accents or ' +
      'punctuation, joined by one space), the projects a relevance search shows first, in order, and ' +
      'those it never shows.',
  },
  examples: { request: {}, response: { success: true, pins: EXAMPLE } },
};

export const replacePinsMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'PUT',
    path: '/api/search/pins',
    protect: true,
    tags: ['search'],
    summary: 'Replace every curated result (pin)',
    description:
      'Replaces all pins (at most 1,000; a query of 1–200 characters, stored normalised; at most 10 ' +
      'slugs in `first` and 10 in `hide`; two pins whose queries normalise alike are a 400). For a ' +
      'relevance search of that query, the `first` projects that exist and pass the filters come first ' +
      'in that order, the `hide` ones never appear. Every server process applies them within a second; ' +
      'this one before it answers.',
  },
  examples: {
    request: {
      pins: [
        { query: 'Qwen', first: ['qwen'], hide: ['qwen-webui-mirror'] },
        { query: '千问', first: ['qwen'] },
      ],
    },
    response: { success: true, pins: EXAMPLE },
  },
};

export const GetPinsInput = queryObject({});

const slugs = z.array(text({ min: 1, max: 200 })).max(10);

export const PinInput = z.strictObject({
  query: text({ min: 1, max: 200 }),
  first: slugs,
  hide: optional(slugs),
});

export const PinsInput = z
  .array(PinInput)
  .max(1000)
  .superRefine((pins, ctx) => {
    const seen = new Map<string, number>();
    pins.forEach((pin, i) => {
      const key = pinQuery(pin.query);
      if (key === '') {
        ctx.addIssue({ code: 'custom', path: [i, 'query'], message: 'Has no word search could match' });
        return;
      }
      const at = seen.get(key);
      if (at !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'query'],
          message: `"${pin.query}" is the query of pin ${at} once normalised ("${key}"); a query has one pin`,
        });
      else seen.set(key, i);
    });
  });

export const ReplacePinsInput = z.strictObject({ pins: PinsInput });

export const Pin = z
  .object({ query: z.string(), first: z.array(z.string()), hide: z.array(z.string()) })
  .meta({ id: 'Pin' });

export const PinsOutput = z.object({ success: z.literal(true), pins: z.array(Pin) });
