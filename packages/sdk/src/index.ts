/**
 * The typed client of the Project Directory service. Inputs and outputs are the service's own
 * types (`RouterInputs`/`RouterOutputs`, derived from its zod schemas).
 */

export type { AppRouter, RouterInputs, RouterOutputs } from '@directory/core';
export { createDirectoryClient, type DirectoryClient, type DirectoryClientOptions } from './client.ts';
export { DirectoryError } from './errors.ts';
export type { Export, ExportOptions, ExportRecord, ProjectExport } from './helpers/export-projects.ts';
export type { FollowOptions } from './helpers/follow.ts';
export type { ListAllOptions } from './helpers/list-all.ts';
export type {
  RunWorkerOptions,
  WorkerContext,
  WorkerEvent,
  WorkerTotals,
} from './helpers/run-worker.ts';
export type { TakeOptions } from './helpers/take.ts';
export type {
  UpsertAllOptions,
  UpsertError,
  UpsertProgress,
  UpsertTotals,
  UpsertWarning,
} from './helpers/upsert-all.ts';
export {
  createDirectoryTrpcClient,
  type DirectoryTrpcClient,
  type DirectoryTrpcClientOptions,
} from './trpc-client.ts';
export type {
  Change,
  CompleteTaskInput,
  ExportedProject,
  ExportHeader,
  LeasedTask,
  ListChangesInput,
  ListTasksInput,
  Pin,
  PinInput,
  Project,
  ProjectInput,
  RelatedProjectItem,
  RelatedProjectsInput,
  Signals,
  Task,
  TaskStatus,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryDetail,
} from './types.ts';
export { verifyWebhook, type WebhookHeaders, type WebhookMessage } from './verify.ts';
