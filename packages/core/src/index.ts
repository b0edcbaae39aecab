// The public face of @directory/core: the router and its types (apps/server, the SDK, the web
// console), the context and error type the REST adapter needs, and what apps/server wires in
// (read model, reaper, queue stats, webhook payloads, url keys). Everything else is internal:
// before exporting a name, check that something outside packages/core imports it.
export { readCredentials } from './auth.ts';
export type { FeedServices } from './changes/feed.ts';
export { slugify } from './domain/slug.ts';
export { urlKey } from './domain/url-key.ts';
export {
  attemptError,
  GIVE_UP_AFTER_MS,
  messageId,
  retryDelayMs,
  signedHeaders,
  WEBHOOK_DEFAULTS,
  webhookPayload,
} from './domain/webhook-delivery.ts';
export { isPrivateAddress } from './domain/webhook-targets.ts';
export { AppError, type ErrorKind, toAppError } from './errors.ts';
export * as examples from './examples.ts';
export type { Meta } from './meta.ts';
export { openApiDocument } from './openapi.ts';
export { ReadModel } from './read-model/read-model.ts';
export { type AppRouter, appRouter, type RouterInputs, type RouterOutputs } from './router.ts';
export { HTTP_URL_PATTERN, MAX_URL_BYTES } from './schemas/url-rule.ts';
export type { QueueEvent } from './services/queue-signals.ts';
export {
  DEFAULT_REAPER,
  type ReaperSettings,
  reapExpiredTasks,
  startReaper,
} from './services/reaper.ts';
export { readQueueStats } from './tasks/get-queue-stats.ts';
export { type Context, createCallerFactory, POSITION_HEADER } from './trpc.ts';
