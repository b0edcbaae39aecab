import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

export type RelatedProject = RouterOutputs['projects']['related']['projects'][number];

/** The projects like one project, most alike first, each with what it shares. */
export const getRelatedProjects = (slug: string, signal?: AbortSignal) =>
  request((client) => client.projects.related({ slug, limit: 6 }), { signal });
