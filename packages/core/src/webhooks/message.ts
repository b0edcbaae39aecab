import type { ChangeRecord } from '@directory/db';
import { type Change, toChange } from '../changes/feed.ts';

/** `webhook-id` of a change's message: the same for every attempt and every webhook. */
export const messageId = (changeId: string) => `chg_${changeId}`;

/** The JSON body POSTed for a change (Standard Webhooks' recommended {type, timestamp, data}). */
export function webhookPayload(change: ChangeRecord): { type: string; timestamp: string; data: Change } {
  const data = toChange(change);
  return { type: change.type, timestamp: data.at, data };
}
