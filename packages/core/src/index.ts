export { type Credentials, readCredentials } from './auth.ts';
export { type Change, encodeCursor, type FeedServices, toChange } from './changes/feed.ts';
export { AppError, type ErrorBody, type ErrorKind, type InputSource, toAppError } from './errors.ts';
export * as examples from './examples.ts';
export type { Meta } from './meta.ts';
export { openApiDocument } from './openapi.ts';
export {
  decodePosition,
  encodePosition,
  ReadModel,
  type ReadModelStats,
} from './read-model/read-model.ts';
export { type AppRouter, appRouter, type RouterInputs, type RouterOutputs } from './router.ts';
export { ProjectInput } from './schemas/project.ts';
export { HTTP_URL_PATTERN, MAX_URL_BYTES } from './schemas/url-rule.ts';
export { slugify } from './slug.ts';
export { readQueueStats } from './tasks/get-queue-stats.ts';
export type { QueueEvent } from './tasks/queue-signals.ts';
export {
  DEFAULT_REAPER,
  type ReaperSettings,
  reapExpiredTasks,
  startReaper,
} from './tasks/reap-expired-tasks.ts';
export { type Context, createCallerFactory, POSITION_HEADER } from './trpc.ts';
export { urlKey } from './url-key.ts';
export { messageId, webhookPayload } from './webhooks/message.ts';
export { isPrivateAddress, privateTargetProblem } from './webhooks/targets.ts';
