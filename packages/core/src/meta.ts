import type { OpenApiMeta } from 'trpc-to-openapi';

/** Every procedure's meta: `openapi.method` and `openapi.path` are its REST route. */
export type Meta = OpenApiMeta & { openapi: NonNullable<OpenApiMeta['openapi']> };
