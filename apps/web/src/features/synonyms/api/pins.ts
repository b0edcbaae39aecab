import type { PinInput } from '@directory/sdk';
import { request } from '../../../lib/api-client.ts';

export const getPins = (signal?: AbortSignal) => request((client) => client.search.pins(), { signal });

export const replacePins = (pins: PinInput[]) =>
  request((client) => client.search.replacePins({ pins }), { key: true });

/** A query's first page as search answers it now (the preview's start). */
export const firstPage = (q: string, signal?: AbortSignal) =>
  request((client) => client.projects.list({ q, limit: 10 }), { signal });
