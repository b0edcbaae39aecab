// `@directory/core/server`: what a server process (apps/server) wires around the router — the
// error type the REST adapter maps, credentials, the OpenAPI document and its examples, the read
// model, the queue's reaper and stats, webhook delivery, URL keys for the migration backfill.
// Before exporting a name here, check that something outside packages/core imports it.
export {
  authenticate,
  bootstrapVerifier,
  headerKey,
  type KeyVerifier,
  type Principal,
  readCredentials,
  requireScope,
} from './auth.ts';
export type { FeedServices } from './changes/feed.ts';
export { etagOf } from './domain/etag.ts';
export { SCOPES, type Scope } from './domain/scopes.ts';
export { urlKey } from './domain/url-key.ts';
export {
  GIVE_UP_AFTER_MS,
  messageId,
  retryDelayMs,
  signedHeaders,
  signingSecrets,
  WEBHOOK_DEFAULTS,
  webhookPayload,
} from './domain/webhook-delivery.ts';
export {
  ANSWER_BODY_BYTES,
  answerBody,
  answerHeaders,
  sendAttempt,
  sendFailure,
  type WebhookAnswer,
  WebhookSendError,
} from './domain/webhook-exchange.ts';
export { ipv6Bytes, isPrivateAddress, webhookUrlProblem } from './domain/webhook-targets.ts';
export { AppError, type ErrorKind, toAppError, unauthorized } from './errors.ts';
export * as examples from './examples.ts';
export {
  EXPORT_CONTENT_TYPES,
  EXPORT_CURSOR_HEADER,
  EXPORT_PATH,
  EXPORT_SCOPE,
} from './export/export.types.ts';
export { csvHeaderRow, csvRow, headerLine, projectLine } from './export/export-lines.ts';
export {
  EXPORT_RETRY_AFTER_S,
  type ExportRun,
  ExportSlots,
  exportRunning,
  openExport,
  readExportInput,
} from './export/open-export.ts';
export { createAdminKeyIfNone } from './keys/admin-key.ts';
export { openApiDocument } from './openapi.ts';
export { ReadModel } from './read-model/read-model.ts';
export { renderJson } from './render-json.ts';
export { type InputShape, procedureInputShape } from './schemas/input-shape.ts';
export { HTTP_URL_PATTERN, MAX_URL_BYTES } from './schemas/url-rule.ts';
export { KEY_CACHE_MS, KeyStore, TOUCH_INTERVAL_MS } from './services/key-store.ts';
export type { QueueEvent } from './services/queue-signals.ts';
export {
  DEFAULT_REAPER,
  type ReaperSettings,
  reapExpiredTasks,
  startReaper,
} from './services/reaper.ts';
export { readQueueStats } from './tasks/get-queue-stats.ts';
export { checkedOutputOf } from './trusted-output.ts';
