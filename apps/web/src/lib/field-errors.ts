/**
 * The API's validation details (`<path>: <message>`, in English: they are the contract) as the
 * console shows them: each on its field, in the page's language (i18n/field-errors.*.ts). A message the
 * console does not know is said as "this field is not valid", never in raw English (docs/curation.md#in-the-console).
 */

/** A message the console can say, with the number it names if any. */
export type FieldProblem =
  | { key: 'required' }
  | { key: 'tooLong'; max: number }
  | { key: 'tooShort'; min: number }
  | { key: 'tooMany'; max: number }
  | { key: 'invalidUrl' }
  | { key: 'urlTooLong'; max: number }
  | { key: 'badOption' }
  | { key: 'listedTwice' }
  | { key: 'takenUrl'; slug: string }
  | { key: 'badText' }
  | { key: 'tagNameTaken'; slug: string }
  | { key: 'invalid' };

const RULES: [RegExp, (m: RegExpExecArray) => FieldProblem][] = [
  [/^Invalid input: expected \w+, received undefined$/, () => ({ key: 'required' })],
  [/^Too small: expected string to have >=1 characters?$/, () => ({ key: 'required' })],
  [/^Too big: expected string to have <=(\d+) characters?$/, (m) => ({ key: 'tooLong', max: Number(m[1]) })],
  [
    /^Too small: expected string to have >=(\d+) characters?$/,
    (m) => ({ key: 'tooShort', min: Number(m[1]) }),
  ],
  [/^Too big: expected array to have <=(\d+) items?$/, (m) => ({ key: 'tooMany', max: Number(m[1]) })],
  [/^Invalid URL\b/, () => ({ key: 'invalidUrl' })],
  [/^Too big: expected URL to have <=(\d+) bytes$/, (m) => ({ key: 'urlTooLong', max: Number(m[1]) })],
  [/^Invalid option: expected one of /, () => ({ key: 'badOption' })],
  [/^The url ".*" is listed twice$/, () => ({ key: 'listedTwice' })],
  [/^The url ".*" now belongs to project "([^"]+)"$/, (m) => ({ key: 'takenUrl', slug: m[1]! })],
  [/^Must (not contain (NUL|control)|be well-formed Unicode)/, () => ({ key: 'badText' })],
  // a header's limit (X-Directory-Summary): counted in characters
  [/^Must be at most (\d+) characters$/, (m) => ({ key: 'tooLong', max: Number(m[1]) })],
  // a tag rename's 409 (docs/curation.md#tags)
  [
    /^tag "([^"]+)" is already named ".*"; merge the two tags instead$/,
    (m) => ({ key: 'tagNameTaken', slug: m[1]! }),
  ],
];

/** The header a form field sets, as a detail names it: its field's path. */
const HEADER_FIELDS = new Map([['header X-Directory-Summary', 'summary']]);

/** What one API message means to the console; `invalid` when it is not one it knows. */
export function problemOf(message: string): FieldProblem {
  for (const [re, make] of RULES) {
    const m = re.exec(message);
    if (m) return make(m);
  }
  return { key: 'invalid' };
}

/**
 * The field path a detail names (`links.0.url` of `links.0.url: Invalid URL…`), if it names one;
 * `summary` for the X-Directory-Summary header (the summary field sets it).
 */
export function pathOf(detail: string): string | undefined {
  const at = detail.indexOf(': ');
  const path = at > 0 ? detail.slice(0, at) : '';
  return /^\w+(\.\w+)*$/.test(path) ? path : HEADER_FIELDS.get(path);
}

/** The details as field path → problem (the first one given for a path); details without a path are left out. */
export function fieldErrors(details: readonly string[]): Map<string, FieldProblem> {
  const out = new Map<string, FieldProblem>();
  for (const d of details) {
    const path = pathOf(d);
    if (path === undefined || out.has(path)) continue;
    out.set(path, problemOf(d.slice(d.indexOf(': ') + 2)));
  }
  return out;
}

/** The details as field path → message in the page's language (`t`: its catalog). */
export function fieldMessages(
  t: { fieldProblem(p: FieldProblem): string },
  details: readonly string[],
): Map<string, string> {
  return new Map([...fieldErrors(details)].map(([path, p]) => [path, t.fieldProblem(p)]));
}
