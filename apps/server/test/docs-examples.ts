/**
 * The examples of the README and of every page of docs/, read out of the Markdown so that
 * docs-examples.test.ts can run them against a real server and compare what they print with
 * what the page shows.
 *
 * What runs: every ```sh block, every ```text block that is a transcript (its first line starts
 * with `$ `) and every ```ts block, unless the line before the block is a comment
 * `<!-- docs-test: skip: <why> -->` (a block that starts a server, needs Docker, loops forever…).
 * What is compared:
 * - in a sh block, `# ` lines right after a command are what the commands since the previous
 *   output printed (a `# ` line after a blank line, or first in the block, is a plain comment);
 * - a ```text block right after a sh block is what that block's last commands printed;
 * - in a transcript, the lines after a `$ ` command (and its continuation lines, indented by four
 *   spaces) are what it printed.
 * A ts block runs to its end (its `//` comments are not compared).
 */

export interface Step {
  /** Where the code is: `docs/api.md:212`. */
  where: string;
  lang: 'sh' | 'ts';
  code: string;
  /** What the page shows it prints, if anything. */
  expected?: string | undefined;
}

interface Block {
  lang: string;
  line: number;
  lines: string[];
  skip: boolean;
  /** Only blank lines between this block's opening fence and the previous block's closing one. */
  followsPrevious: boolean;
}

const SKIP = /^<!-- docs-test: skip: .+ -->$/;

function blocks(text: string): Block[] {
  const lines = text.split('\n');
  const found: Block[] = [];
  let lastClose = -2;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] as string); i++) body.push(lines[i] as string);
    let before = start - 1;
    while (before >= 0 && (lines[before] as string).trim() === '') before--;
    found.push({
      lang: open[1] ?? '',
      line: start + 2,
      lines: body,
      skip: before >= 0 && SKIP.test((lines[before] as string).trim()),
      followsPrevious: before === lastClose,
    });
    lastClose = i;
  }
  return found;
}

const isOutputComment = (line: string) => line === '#' || line.startsWith('# ');
const uncomment = (line: string) => line.replace(/^# ?/, '');

/** A sh block: code, with the `# ` output lines after commands split off. */
function shSteps(name: string, block: Block): Step[] {
  const steps: Step[] = [];
  let code: string[] = [];
  let codeLine = block.line;
  let i = 0;
  const lines = block.lines;
  while (i < lines.length) {
    const line = lines[i] as string;
    const previous = i > 0 ? (lines[i - 1] as string) : '';
    if (
      isOutputComment(line) &&
      code.some((l) => l.trim() && !l.startsWith('#')) &&
      previous.trim() !== '' &&
      !isOutputComment(previous)
    ) {
      const out: string[] = [];
      while (i < lines.length && isOutputComment(lines[i] as string))
        out.push(uncomment(lines[i++] as string));
      steps.push({
        where: `${name}:${codeLine}`,
        lang: 'sh',
        code: code.join('\n'),
        expected: out.join('\n'),
      });
      code = [];
      codeLine = block.line + i;
      continue;
    }
    code.push(line);
    i++;
  }
  if (code.some((l) => l.trim() && !l.startsWith('#')))
    steps.push({ where: `${name}:${codeLine}`, lang: 'sh', code: code.join('\n') });
  return steps;
}

/** A transcript: `$ command` (continued on lines indented by four spaces), then what it printed. */
function transcriptSteps(name: string, block: Block): Step[] {
  const steps: Step[] = [];
  const lines = block.lines;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (!line.startsWith('$ ')) {
      i++;
      continue;
    }
    const at = block.line + i;
    const code = [line.slice(2)];
    for (i++; i < lines.length && (lines[i] as string).startsWith('    '); i++) code.push(lines[i] as string);
    const out: string[] = [];
    for (; i < lines.length && !(lines[i] as string).startsWith('$ '); i++) out.push(lines[i] as string);
    const expected = out.join('\n').trim();
    steps.push({
      where: `${name}:${at}`,
      lang: 'sh',
      code: code.join('\n'),
      expected: expected || undefined,
    });
  }
  return steps;
}

/**
 * Commands an example must not run inside a test (they install, start servers or tests of their
 * own, touch Docker or databases by hand, or stop processes): a block with one needs the skip
 * comment, else the page's test fails before running anything.
 */
const UNSAFE =
  /(^|[\s;&|(])(pnpm (start|test|install|bench|dev|build)|npx|docker|createdb|dropdb|pg_dump|pg_restore|psql|kill|pkill|killall|shutdown|sudo)(\s|$)/m;

/** The steps of one Markdown file, in order; throws on an unsafe step without a skip comment. */
export function docSteps(name: string, text: string): Step[] {
  const steps: Step[] = [];
  const all = blocks(text);
  for (const [n, block] of all.entries()) {
    if (block.skip) continue;
    if (block.lang === 'sh' || block.lang === 'bash') {
      const own = shSteps(name, block);
      const next = all[n + 1];
      const last = own.at(-1);
      if (
        next?.lang === 'text' &&
        next.followsPrevious &&
        !next.skip &&
        !next.lines.find((l) => l.trim())?.startsWith('$ ') &&
        last &&
        last.expected === undefined
      ) {
        last.expected = next.lines.join('\n');
      }
      steps.push(...own);
    } else if (block.lang === 'text' && block.lines.find((l) => l.trim())?.startsWith('$ ')) {
      steps.push(...transcriptSteps(name, block));
    } else if (block.lang === 'ts') {
      steps.push({ where: `${name}:${block.line}`, lang: 'ts', code: block.lines.join('\n') });
    }
  }
  for (const step of steps) {
    const unsafe = UNSAFE.exec(step.code);
    if (unsafe)
      throw new Error(
        `${step.where}: "${unsafe[2]}" must not run in a test; put <!-- docs-test: skip: <why> --> before the block`,
      );
  }
  return steps;
}

/**
 * Whether `actual` begins with what the page shows: whitespace aside, where `…` stands for
 * anything, and ids, times, cursors, request ids and durations, which differ from run to run,
 * match any value of their kind.
 */
export function matches(expected: string, actual: string): boolean {
  return pattern(expected).test(actual.replace(/\s+/g, ''));
}

const KINDS: [RegExp, string][] = [
  [/…/g, '[\\s\\S]*?'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z'],
  [/\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/g, '\\d{4}-\\d\\d-\\d\\d\\d\\d:\\d\\d:\\d\\dZ'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '[0-9a-f-]{36}'],
  [/("(?:nextCursor|cursor)":")[A-Za-z0-9_-]+/g, '$1[A-Za-z0-9_-]+'],
  [/"duration":\d+/g, '"duration":\\d+'],
  [/\b(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{24}\b/g, '[a-z0-9]{24}'],
];

function pattern(expected: string): RegExp {
  // Each kind becomes a placeholder first, so that escaping leaves the patterns alone.
  const patterns: string[] = [];
  let text = expected;
  for (const [kind, replacement] of KINDS) {
    text = text.replace(kind, (...m) => {
      const match = m[0] as string;
      const groups = m.slice(1, -2) as (string | undefined)[];
      const escapedGroup =
        groups[0] !== undefined && replacement.startsWith('$1') ? escapeRegExp(groups[0]) : '';
      patterns.push(replacement.startsWith('$1') ? escapedGroup + replacement.slice(2) : replacement);
      void match;
      return `\uE000${patterns.length - 1}\uE000`;
    });
  }
  const source = escapeRegExp(text.replace(/\s+/g, '')).replace(
    /\uE000(\d+)\uE000/g,
    (_, n) => patterns[Number(n)] as string,
  );
  return new RegExp(`^${source}`);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
