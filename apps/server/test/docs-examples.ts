/**
 * The examples of the README and of every page of docs/, read out of the Markdown so that
 * docs-examples.test.ts can run them against a real server and compare what they print with
 * what the page shows.
 *
 * What runs: every ```sh block, every ```text block that is a transcript (its first line starts
 * with `$ `) and every ```ts block, unless the line before the block is a comment
 * `<!-- docs-test: skip: <why> -->` (a block that starts a server, needs Docker, loops forever…).
 * Any other ```text block must be what the sh block right before it prints, or say why it does
 * not run: a page cannot show an output that nothing checks.
 * What is compared (whole, by `matches`):
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
  const used = new Set<Block>();
  const problems: string[] = [];
  for (const [n, block] of all.entries()) {
    if (block.skip || used.has(block)) continue;
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
        used.add(next);
      }
      steps.push(...own);
    } else if (block.lang === 'text' && block.lines.find((l) => l.trim())?.startsWith('$ ')) {
      steps.push(...transcriptSteps(name, block));
    } else if (block.lang === 'ts') {
      steps.push({ where: `${name}:${block.line}`, lang: 'ts', code: block.lines.join('\n') });
    } else if (block.lang === 'text') {
      problems.push(
        `${name}:${block.line}: a text block that is neither a transcript (\`$ \` first) nor what the sh block right ` +
          'before it prints (with nothing printed in that block after its last command); ' +
          'say why it does not run: <!-- docs-test: skip: <why> --> before the block',
      );
    }
  }
  for (const step of steps) {
    const unsafe = UNSAFE.exec(step.code);
    if (unsafe)
      problems.push(
        `${step.where}: "${unsafe[2]}" must not run in a test; put <!-- docs-test: skip: <why> --> before the block`,
      );
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return steps;
}

/**
 * Whether `actual` is what the page shows, whole (whitespace aside, so that a page may wrap a long
 * line). A page writes what differs from run to run as a placeholder, and `…` for what it leaves out:
 */
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const PLACEHOLDERS: Record<string, string> = {
  /** A cuid2 id. */
  '<id>': '[a-z0-9]{24,32}',
  /** A time, as the API writes it (`2026-11-25T14:23:46.785Z`) or the CLI (`2026-11-25 14:23:46Z`). */
  '<time>': '\\d{4}-\\d\\d-\\d\\d(?:T)?\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?Z',
  /** An ETag, `W/"…"`. */
  '<etag>': 'W/"[A-Za-z0-9_-]+"',
  /** A position of the change feed (X-Directory-Position, minPosition). */
  '<position>': '[A-Za-z0-9_.-]+',
  /** A cursor (nextCursor, a change's cursor). */
  '<cursor>': '[A-Za-z0-9_.-]+',
  /** A request id. */
  '<uuid>': '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
  /** A number that varies: a duration, a count of something the machine decides. */
  '<n>': '\\d+(?:\\.\\d+)?',
  /** Anything, or nothing: what the page leaves out. */
  '…': '[\\s\\S]*?',
};

export function matches(expected: string, actual: string): boolean {
  return pattern(expected).test(actual.replace(/\s+/g, ''));
}

const PLACEHOLDER = new RegExp(
  Object.keys(PLACEHOLDERS)
    .map((p) => escapeRegExp(p))
    .join('|'),
  'g',
);

function pattern(expected: string): RegExp {
  const parts = expected.replace(/\s+/g, '').split(PLACEHOLDER);
  const holders = expected.replace(/\s+/g, '').match(PLACEHOLDER) ?? [];
  const source = parts
    .map(
      (part, i) =>
        escapeRegExp(part) + (i < holders.length ? `(?:${PLACEHOLDERS[holders[i] as string]})` : ''),
    )
    .join('');
  return new RegExp(`^${source}$`);
}
