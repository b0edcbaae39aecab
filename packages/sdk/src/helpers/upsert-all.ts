import { DirectoryError } from '../errors.ts';
import type { Endpoints, ProjectInput } from '../types.ts';

export interface UpsertError {
  /** The item's position in the whole input, from 0. */
  index: number;
  name: string;
  error: string;
}

/**
 * A project written by an update that may be wrong: found by slug only while its CODEHOST/WEBSITE links
 * differ from the stored project's (docs/curation.md#updates-that-may-be-wrong). It was written all the same.
 */
export interface UpsertWarning {
  /** The item's position in the whole input, from 0. */
  index: number;
  id: string;
  slug: string;
  /** The server's texts, e.g. "matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's". */
  warnings: string[];
}

export interface UpsertTotals {
  processed: number;
  created: number;
  updated: number;
  failed: number;
  /** Every failed item so far, in input order within each batch. */
  errors: UpsertError[];
  /** Every project created or updated so far, with its slug, in input order. */
  written: { index: number; action: 'created' | 'updated'; id: string; slug: string; warnings?: string[] }[];
  /** Every written project whose result carried warnings so far, in input order ([] when none). */
  warnings: UpsertWarning[];
}

export interface UpsertProgress extends UpsertTotals {
  /** The batch just finished, from 1. */
  batch: number;
  /** How many items that batch held. */
  items: number;
}

export interface UpsertAllOptions {
  /** Items per request, 1-100 (the endpoint's limit). */
  batchSize?: number;
  /** Called after each batch with the totals so far. */
  onBatch?: (progress: UpsertProgress) => void | Promise<void>;
}

const MAX_BATCH = 100;
// `projects.3.name: …` (a field of the item) or `projects.3: …` (the item itself)
const ITEM_DETAIL = /^projects\.(\d+)(?:\.(.*)|: (.*))$/s;

/**
 * The items a 400 names (`projects.<i>.<field>: <message>` or `projects.<i>: <message>`), with their messages relative to
 * the item; undefined when some detail names no item, since dropping items cannot fix that.
 */
function itemFailures(err: DirectoryError): Map<number, string[]> | undefined {
  if (err.status !== 400 || err.error !== 'Validation error' || err.details.length === 0) return undefined;
  const failures = new Map<number, string[]>();
  for (const detail of err.details) {
    const match = ITEM_DETAIL.exec(detail);
    if (!match) return undefined;
    const index = Number(match[1]);
    failures.set(index, [...(failures.get(index) ?? []), (match[2] ?? match[3])!]);
  }
  return failures;
}

const nameOf = (item: unknown) => {
  const name = (item as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
};

/**
 * Upserts any number of projects in batches. The endpoint refuses a whole request when one
 * item is invalid, so the items a refusal names are counted as failed and the rest of the
 * batch is sent again: one bad item does not fail the good ones.
 */
export async function upsertAll(
  upsert: Endpoints['projects']['upsert'],
  items: Iterable<ProjectInput> | AsyncIterable<ProjectInput>,
  options: UpsertAllOptions = {},
): Promise<UpsertTotals> {
  const { batchSize = MAX_BATCH, onBatch } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) {
    throw new RangeError(`batchSize must be an integer from 1 to ${MAX_BATCH}, got ${batchSize}`);
  }
  const totals: UpsertTotals = {
    processed: 0,
    created: 0,
    updated: 0,
    failed: 0,
    errors: [],
    written: [],
    warnings: [],
  };
  let batch = 0;
  let start = 0;

  async function send(projects: ProjectInput[]) {
    batch++;
    const batchErrors: UpsertError[] = [];
    // Items still to send, with their positions in the whole input.
    let pending = projects.map((project, i) => ({ project, index: start + i }));
    while (pending.length > 0) {
      try {
        const result = await upsert({ projects: pending.map((p) => p.project) });
        totals.processed += result.processed;
        totals.created += result.created;
        totals.updated += result.updated;
        totals.failed += result.failed;
        for (const e of result.errors) batchErrors.push({ ...e, index: pending[e.index]?.index ?? e.index });
        for (const r of result.results)
          if (r.action !== 'failed' && r.id !== null && r.slug !== null) {
            const index = pending[r.index]?.index ?? r.index;
            const warnings = r.warnings?.length ? r.warnings : undefined;
            totals.written.push({
              index,
              action: r.action,
              id: r.id,
              slug: r.slug,
              ...(warnings && { warnings }),
            });
            if (warnings) totals.warnings.push({ index, id: r.id, slug: r.slug, warnings });
          }
        break;
      } catch (err) {
        const failures = err instanceof DirectoryError ? itemFailures(err) : undefined;
        if (!failures?.size || [...failures.keys()].some((i) => i >= pending.length)) throw err;
        for (const [i, messages] of failures) {
          const { project, index } = pending[i]!;
          totals.processed++;
          totals.failed++;
          batchErrors.push({ index, name: nameOf(project), error: messages.join('; ') });
        }
        pending = pending.filter((_, i) => !failures.has(i));
      }
    }
    totals.errors.push(...batchErrors.sort((a, b) => a.index - b.index));
    start += projects.length;
    await onBatch?.({
      batch,
      items: projects.length,
      ...totals,
      errors: [...totals.errors],
      written: [...totals.written],
      warnings: [...totals.warnings],
    });
  }

  let buffer: ProjectInput[] = [];
  for await (const item of items) {
    buffer.push(item);
    if (buffer.length === batchSize) {
      await send(buffer);
      buffer = [];
    }
  }
  if (buffer.length > 0) await send(buffer);
  return totals;
}
