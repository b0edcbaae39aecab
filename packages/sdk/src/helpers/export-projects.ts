import { DirectoryError, errorFromReply } from '../errors.ts';
import { retryAfterMs } from '../transport.ts';
import type { ExportedProject, ExportHeader } from '../types.ts';

/** What GET /api/export takes (docs/api.md#export-get-apiexport), and how a cut is resumed. */
export interface ExportOptions {
  status?: 'ACTIVE' | 'ARCHIVED' | 'ALL';
  tag?: string[];
  updatedAfter?: string;
  /** Start after this project id (the last one an earlier export gave). */
  after?: string;
  /** Ends the export; the iteration then ends with the signal's reason. */
  signal?: AbortSignal;
  /** Attempts in a row that may fail without a line received before the export gives up; default 5. */
  retries?: number;
  /** Called before a part is asked for again: after which id, and why. */
  onResume?: (event: { after: string | undefined; error: DirectoryError; attempt: number }) => void;
}

/** Where the export is sent, and how (the client's options). */
export interface ExportTarget {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch?: typeof globalThis.fetch | undefined;
}

/** One record of an export as it arrived: its text (with its line end) and the project's id (none: a header). */
export interface ExportRecord {
  text: string;
  id: string | undefined;
  /** The part it belongs to (0: the first request, 1 after the first resume, …). */
  part: number;
}

/** What is known of an export's parts: each part's header, the first part's first. */
export interface ExportParts {
  headers: ExportHeader[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The complete records at the start of `state.buffer` (kept: what follows the last one). A record
 * ends at a line end; in CSV only outside double quotes (a doubled quote toggles twice). NDJSON
 * has no line end inside a line, and its escaped quotes are not CSV's, so it is split on every one.
 */
function takeRecords(state: { buffer: string; quoted: boolean; scanned: number }, csv: boolean): string[] {
  const records: string[] = [];
  const { buffer } = state;
  let start = 0;
  for (let i = state.scanned; i < buffer.length; i++) {
    const c = buffer.charCodeAt(i);
    if (csv && c === 34) state.quoted = !state.quoted;
    else if (c === 10 && !state.quoted) {
      records.push(buffer.slice(start, i + 1));
      start = i + 1;
    }
  }
  state.buffer = buffer.slice(start);
  state.scanned = state.buffer.length;
  return records;
}

/**
 * The records of an export, in id order, each complete (a cut mid-record drops that record):
 * after a cut (a network error, the answer ending short of its count, 429, 503) the export is
 * asked for again after the last id received, from a new snapshot (docs/changes-and-webhooks.md#export-then-follow).
 */
export async function* exportRecords(
  target: ExportTarget,
  format: 'ndjson' | 'csv',
  options: ExportOptions,
  parts: ExportParts,
): AsyncGenerator<ExportRecord, void, undefined> {
  const fetchFn = target.fetch ?? globalThis.fetch;
  const retries = options.retries ?? 5;
  let after = options.after;
  let failures = 0;
  for (let part = 0; ; part++) {
    const query = new URLSearchParams({ format });
    if (options.status) query.set('status', options.status);
    for (const tag of options.tag ?? []) query.append('tag', tag);
    if (options.updatedAfter) query.set('updatedAfter', options.updatedAfter);
    if (after) query.set('after', after);
    const headers: Record<string, string> = { 'accept-encoding': 'gzip' };
    if (target.apiKey !== undefined) headers['x-api-key'] = target.apiKey;
    let received = 0;
    let expected: number | undefined;
    let error: DirectoryError;
    let waitMs: number | undefined;
    try {
      const res = await fetchFn(`${target.baseUrl}/api/export?${query}`, {
        headers,
        ...(options.signal && { signal: options.signal }),
      });
      if (!res.ok) {
        const refusal = errorFromReply(res.status, res.statusText, await res.text());
        if (res.status !== 429 && res.status !== 503) throw refusal;
        error = refusal;
        waitMs = retryAfterMs(res.headers.get('retry-after')) ?? 1_000;
      } else {
        const header: ExportHeader = {
          type: 'export',
          version: 1,
          asOf: res.headers.get('x-export-as-of') ?? '',
          cursor: res.headers.get('x-export-cursor') ?? '',
          count: Number(res.headers.get('x-export-count') ?? Number.NaN),
        };
        parts.headers.push(header);
        expected = header.count;
        const state = { buffer: '', quoted: false, scanned: 0 };
        const decoder = new TextDecoder();
        let first = true;
        const reader = res.body?.getReader();
        try {
          for (;;) {
            const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
            if (chunk.done) break;
            state.buffer += decoder.decode(chunk.value, { stream: true });
            for (const text of takeRecords(state, format === 'csv')) {
              // the first record is the header line (NDJSON) or the header row (CSV)
              const id = first ? undefined : recordId(format, text);
              first = false;
              if (id !== undefined) {
                after = id;
                received++;
                failures = 0;
              }
              yield { text, id, part };
            }
          }
        } finally {
          // a consumer that stops early closes the connection: the server ends the snapshot
          await reader?.cancel().catch(() => {});
        }
        if (received >= expected) return;
        error = new DirectoryError(0, 'Network error', [
          `GET /api/export: ended after ${received} of ${expected} projects`,
        ]);
      }
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (err instanceof DirectoryError) throw err;
      const reason = (err as { cause?: { message?: unknown } }).cause?.message ?? (err as Error).message;
      error = new DirectoryError(0, 'Network error', [`GET /api/export: ${String(reason)}`], { cause: err });
    }
    if (received === 0 && ++failures > retries) throw error;
    options.onResume?.({ after, error, attempt: failures });
    await sleep(waitMs ?? Math.min(5_000, 100 * 2 ** failures));
  }
}

/** A record's project id: NDJSON's `id`; CSV's first field (an id is never quoted). */
function recordId(format: 'ndjson' | 'csv', text: string): string {
  if (format === 'csv') return text.slice(0, text.indexOf(','));
  return (JSON.parse(text) as { id: string }).id;
}

/** An export as it arrives, with what it learnt of its snapshots. */
export interface Export<T> extends AsyncIterable<T> {
  /**
   * The first part's header once it arrived: its `cursor` is the one to follow the feed from,
   * also after resumes (docs/changes-and-webhooks.md#export-then-follow); `count` is how many
   * projects the export held at that snapshot (after `after`, when given).
   */
  readonly header: ExportHeader | undefined;
  /** Every part's header, in order (more than one after a resume). */
  readonly parts: readonly ExportHeader[];
}

export type ProjectExport = Export<ExportedProject>;

function exportOf<T>(walk: (parts: ExportParts) => AsyncIterable<T>): Export<T> {
  const parts: ExportParts = { headers: [] };
  return {
    get header() {
      return parts.headers[0];
    },
    get parts() {
      return parts.headers;
    },
    [Symbol.asyncIterator]: () => walk(parts)[Symbol.asyncIterator](),
  };
}

/** GET /api/export as NDJSON, resumed by itself after a cut: `for await (const p of exportProjects(…))`. */
export function exportProjects(target: ExportTarget, options: ExportOptions = {}): ProjectExport {
  return exportOf(async function* (parts) {
    for await (const record of exportRecords(target, 'ndjson', options, parts))
      if (record.id !== undefined) yield JSON.parse(record.text) as ExportedProject;
  });
}

/** The export's records as text (NDJSON lines or CSV records, header line or row included), resumed after a cut. */
export function exportText(
  target: ExportTarget,
  format: 'ndjson' | 'csv',
  options: ExportOptions = {},
): Export<ExportRecord> {
  return exportOf((parts) => exportRecords(target, format, options, parts));
}
