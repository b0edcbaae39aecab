import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { InputError } from './errors.ts';

/** One record of the input, or why it could not be read. */
export interface InputItem {
  /** Position among the input's records (0-based), the index failures are reported with. */
  index: number;
  /** 1-based line in the file, for line-oriented input. */
  line?: number;
  value?: unknown;
  /** Set instead of value when the record is unreadable (a line that is not JSON). */
  error?: string;
}

export interface InputReader {
  items: AsyncIterable<InputItem>;
  /** How much of the input has been consumed (0..1), when that is knowable. */
  fraction(): number | undefined;
  /** Records in the whole input, when knowable: a document, or lines of a regular file. */
  total: number | undefined;
}

interface Source {
  name: string;
  chunks: AsyncIterable<Buffer | string>;
  /** Bytes in a regular file; drives the progress fraction of line-oriented input. */
  size: number | undefined;
  /** The regular file's path, read once more to count its records before they are sent. */
  path?: string | undefined;
  ext: string;
}

/** A file path, or '-' for stdin. A missing or unreadable file is an InputError before anything is sent. */
export async function openSource(path: string, stdin: AsyncIterable<Buffer | string>): Promise<Source> {
  if (path === '-') return { name: 'stdin', chunks: stdin, size: undefined, ext: '' };
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new InputError(`cannot read ${path}: it is a directory`);
    const handle = await open(path, 'r');
    return {
      name: path,
      chunks: handle.createReadStream(),
      size: info.isFile() ? info.size : undefined,
      path: info.isFile() ? path : undefined,
      ext: extname(path).toLowerCase(),
    };
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as { code?: string }).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(err);
    throw new InputError(`cannot read ${path}: ${why}`);
  }
}

/**
 * Lines split at \n; a \r before it stays (callers trim) so bytes consumed can be counted.
 * The UTF-8 decoder drops a leading BOM.
 */
async function* splitLines(chunks: AsyncIterable<Buffer | string>, name: string): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for await (const chunk of chunks) {
      pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
        yield pending.slice(start, nl);
        start = nl + 1;
      }
      pending = pending.slice(start);
    }
  } catch (err) {
    throw new InputError(`cannot read ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  pending += decoder.decode();
  if (pending) yield pending;
}

/** The lines of a regular file (no stdin: a restore reads its file twice), streamed. */
export async function* fileLines(path: string): AsyncGenerator<string> {
  const source = await openSource(path, (async function* () {})());
  if (source.path === undefined) throw new InputError(`cannot read ${path}: not a regular file`);
  yield* splitLines(source.chunks, source.name);
}

export interface ReadOptions {
  /** The key of the wrapper object a JSON document may use, e.g. 'projects' for `{ "projects": [...] }`. */
  wrapperKey: string;
  /** Lines that do not start like JSON are taken as plain strings (a list of URLs). */
  plainText?: boolean;
}

type Mode = 'document' | 'lines';

/** Starts that only a JSON value (not a plain-text line) can have. */
const JSON_START = /^[[{"]/;

/**
 * Reads a JSON document (an array, or an object holding the array under `wrapperKey`) or
 * line-oriented input (NDJSON; with `plainText`, bare lines too). The content decides (a
 * .ndjson/.jsonl file is always lines): a first line opening an array, an object not complete
 * on its own line (pretty-printed), or a one-line wrapper, is a document; anything else is
 * lines. Line input is streamed, so large NDJSON files are never held in memory whole.
 */
export async function readItems(source: Source, options: ReadOptions): Promise<InputReader> {
  const lines = splitLines(source.chunks, source.name);
  // Blank lines before the first record are kept so line numbers stay right.
  const head: string[] = [];
  let first: string | undefined;
  for (;;) {
    const next = await lines.next();
    if (next.done) break;
    head.push(next.value);
    if (next.value.trim() !== '') {
      first = next.value.trim();
      break;
    }
  }
  if (first === undefined) return { items: (async function* () {})(), fraction: () => 1, total: 0 };

  const mode = detectMode(source.ext, first, options.wrapperKey);
  if (mode === 'document') return readDocument(source.name, head, lines, options.wrapperKey);

  const size = source.size;
  const total = source.path === undefined ? undefined : await countRecords(source.path, options);
  let consumedBytes = 0;
  async function* items(): AsyncGenerator<InputItem> {
    let lineNo = 0;
    let index = 0;
    const all = (async function* () {
      yield* head;
      yield* lines;
    })();
    for await (const raw of all) {
      lineNo++;
      consumedBytes += Buffer.byteLength(raw) + 1;
      const text = raw.trim();
      if (!isRecord(text, options)) continue;
      if (options.plainText && !JSON_START.test(text)) {
        yield { index: index++, line: lineNo, value: text };
        continue;
      }
      let item: InputItem;
      try {
        item = { index, line: lineNo, value: JSON.parse(text) };
      } catch (err) {
        item = { index, line: lineNo, error: `not valid JSON: ${jsonMessage(err)}` };
      }
      index++;
      yield item;
    }
    consumedBytes = size ?? 0;
  }
  return {
    items: items(),
    fraction: () => (size ? Math.min(1, consumedBytes / size) : undefined),
    total,
  };
}

/** A line that is a record: not blank, and in a URL list not a `#` comment. */
const isRecord = (text: string, options: ReadOptions) =>
  text !== '' && !(options.plainText && text.startsWith('#'));

/** The records of line-oriented input in a regular file: one pass over its lines, nothing parsed. */
async function countRecords(path: string, options: ReadOptions): Promise<number> {
  const handle = await open(path, 'r');
  let count = 0;
  try {
    for await (const raw of splitLines(handle.createReadStream(), path))
      if (isRecord(raw.trim(), options)) count++;
  } finally {
    await handle.close().catch(() => undefined);
  }
  return count;
}

function detectMode(ext: string, first: string, wrapperKey: string): Mode {
  // Named as NDJSON: a broken first line is then that record's failure, not a broken document.
  if (ext === '.ndjson' || ext === '.jsonl') return 'lines';
  if (first.startsWith('[')) return 'document';
  if (!first.startsWith('{')) return 'lines';
  try {
    const value: unknown = JSON.parse(first);
    return isWrapper(value, wrapperKey) ? 'document' : 'lines';
  } catch {
    // `{` alone or a partial object: a pretty-printed document.
    return 'document';
  }
}

const isWrapper = (value: unknown, key: string): value is Record<string, unknown[]> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Array.isArray((value as Record<string, unknown>)[key]);

async function readDocument(
  name: string,
  head: string[],
  rest: AsyncIterable<string>,
  wrapperKey: string,
): Promise<InputReader> {
  const parts = [...head];
  for await (const line of rest) parts.push(line);
  let value: unknown;
  try {
    value = JSON.parse(parts.join('\n'));
  } catch (err) {
    throw new InputError(`${name} is not valid JSON: ${jsonMessage(err)}`);
  }
  const found = Array.isArray(value) ? value : isWrapper(value, wrapperKey) ? value[wrapperKey] : undefined;
  if (!found) {
    throw new InputError(`${name}: expected a JSON array or an object with a "${wrapperKey}" array`);
  }
  const array: unknown[] = found;
  let consumed = 0;
  async function* items(): AsyncGenerator<InputItem> {
    for (const [index, item] of array.entries()) {
      consumed = index + 1;
      yield { index, value: item };
    }
  }
  return {
    items: items(),
    fraction: () => (array.length ? consumed / array.length : 1),
    total: array.length,
  };
}

const jsonMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
