/**
 * Types for TypeScript agents, derived from the procedures' zod schemas: the input and output
 * of every endpoint, e.g. `RouterInputs['projects']['upsert']` is the body of
 * POST /api/webhook/projects and `RouterOutputs['tasks']['list']` the reply of GET /api/discovery/tasks.
 * A runtime client is still to come; these types are what it will be built on.
 */
export type { AppRouter, RouterInputs, RouterOutputs } from '@directory/core';
