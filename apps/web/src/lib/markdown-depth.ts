/**
 * The deepest nesting of blocks the console renders as markdown (docs/decisions.md#markdown-depth):
 * a project whose content nests deeper (10,000 quote markers, say) is shown as plain text, since
 * a renderer that descends block by block would run out of stack on it.
 */
export const MAX_MARKDOWN_DEPTH = 32;

/** How deep a text's blocks nest: the most quote markers, list markers and indentation levels that start a line. */
export function nestingDepth(source: string): number {
  let max = 0;
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    let depth = 0;
    let spaces = 0;
    for (let i = start; i < end; i++) {
      const ch = source.charCodeAt(i);
      if (ch === 62 /* > */ || ch === 45 /* - */ || ch === 42 /* * */ || ch === 43 /* + */) depth++;
      else if (ch !== 32 && ch !== 9) break;
      // the indentation before the first marker (a nested list's); spaces after markers separate them
      else if (depth === 0) spaces += ch === 9 ? 4 : 1;
    }
    depth += Math.floor(spaces / 2);
    if (depth > max) max = depth;
    start = end + 1;
  }
  return max;
}
