import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ErrorKind } from './errors.ts';

/**
 * Every procedure's meta: `openapi.method` and `openapi.path` are its REST route, and
 * `openapi.protect` says whether it takes the API key (the key check itself is the choice of
 * `keyedProcedure`; `protect` must agree, and is required so that the document never guesses).
 */
export type Meta = OpenApiMeta & {
  openapi: NonNullable<OpenApiMeta['openapi']> & { protect: boolean };
  /**
   * The failures the procedure itself reports, beyond input validation and the key (which
   * every procedure, and every keyed one, may report): they become its documented error responses.
   */
  errors?: readonly ErrorKind[];
};
