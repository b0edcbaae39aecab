// The public face of @directory/core: the router, its types and its context (apps/server, the
// SDK, the web console, internal tools). What a server process wires in besides (the read model,
// the reaper, webhook delivery, errors, OpenAPI) is `@directory/core/server` (src/server.ts).
// Everything else is internal.
export type { ExportHeader } from './export/export-header.ts';
export type { Meta } from './meta.ts';
export { type AppRouter, appRouter, type RouterInputs, type RouterOutputs } from './router.ts';
export { type Context, createCallerFactory, POSITION_HEADER } from './trpc.ts';
