import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

export type Project = RouterOutputs['projects']['get']['data'];

export const getProject = (slug: string, signal?: AbortSignal) =>
  request((client) => client.projects.get({ slug }), { signal });
