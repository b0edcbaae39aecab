import type { PinInput } from '../../types.ts';
import { type Command, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK, InputError } from '../errors.ts';
import { table } from '../format.ts';
import { openSource } from '../input.ts';

/** Reads a whole file (or stdin for '-') as text. */
async function readText(path: string, stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const source = await openSource(path, stdin);
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of source.chunks)
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** The pins of a file: `{ pins: [...] }` or the list itself. */
function pinsOf(text: string, name: string): PinInput[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${name} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const pins = Array.isArray(parsed) ? parsed : (parsed as { pins?: unknown } | null)?.pins;
  if (!Array.isArray(pins))
    throw new InputError(`${name} holds neither { "pins": [...] } nor a list of pins`);
  return pins as PinInput[];
}

export const searchPins: Command = {
  name: 'search pins',
  summary: 'List the curated results (pins), or replace them all from a JSON file',
  synopsis: 'search pins [--set <file.json>]',
  help: `
Without --set, lists every pin: its query (normalised as search normalises it), the projects shown
first, in order, and those never shown. With --set, replaces them all by the file's (a key with
curate is needed): { "pins": [{ "query": "…", "first": ["slug", …], "hide": ["slug", …] }] } or the
list alone; '-' reads stdin. An empty list removes every pin.

With --json, stdout is the service's reply { success, pins }.

Examples:
  directory search pins
  directory search pins --set pins.json`,
  options: { set: { type: 'string' } },
  args: { min: 0, max: 0 },

  async run(ctx) {
    const file = stringOption(ctx.values, 'set');
    const reply =
      file === undefined
        ? await ctx.client.search.pins()
        : await ctx.client.search.replacePins({
            pins: pinsOf(await readText(file, ctx.io.stdin), file === '-' ? 'stdin' : file),
          });
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    const rows = reply.pins.map((p) => [p.query, p.first.join(', '), p.hide.join(', ')]);
    if (rows.length) for (const line of table(['QUERY', 'FIRST', 'HIDE'], rows)) ctx.print(line);
    ctx.print(
      file === undefined ? `${reply.pins.length || 'No'} pins` : `Replaced: ${reply.pins.length} pins`,
    );
    return EXIT_OK;
  },
};
