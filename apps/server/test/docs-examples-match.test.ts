import { describe, expect, it } from 'vitest';
import { docSteps, matches } from './docs-examples.ts';

/** How docs-examples.test.ts compares what a page shows with what its example printed. */
describe('a page shows the whole output', () => {
  it('compares all of it: a page that shows only the first part does not match', () => {
    expect(matches('{"success":true}', '{"success":true}\n')).toBe(true);
    expect(matches('{"success":true,', '{"success":true,"total":3}')).toBe(false);
    expect(matches('{"success":true,"total":3}', '{"success":true}')).toBe(false);
  });

  it('ignores whitespace, so that a page may wrap a long line', () => {
    expect(matches('{"a":1,\n "b":2}', '{"a":1,"b":2}')).toBe(true);
  });

  it('takes the placeholders, and only where they stand', () => {
    const printed =
      '{"id":"pvtjeqoc2ke0xdzeccrb21m5","at":"2026-11-26T15:06:48.165Z","etag":"W/\\"ZBnbacY3Rq3UdH2d\\"","n":34}';
    expect(matches('{"id":"<id>","at":"<time>","etag":"W/\\"ZBnbacY3Rq3UdH2d\\"","n":<n>}', printed)).toBe(
      true,
    );
    expect(matches('{"id":"<id>",…,"n":<n>}', printed)).toBe(true);
    // a literal id or time is compared as written
    expect(matches('{"id":"abcdefghijklmnopqrstuv12",…}', printed)).toBe(false);
    expect(matches('{"id":"<id>","at":"2026-11-26T15:06:48.000Z",…}', printed)).toBe(false);
    expect(matches('ETag: <etag>', 'ETag: W/"hEZzvIe4RvUJBHAtvCWoNWnnkoc"')).toBe(true);
    expect(matches('<time>  alice', '2026-11-25 14:23:46Z  alice')).toBe(true);
    expect(matches('"nextCursor":"<cursor>"', '"nextCursor":"czMuZUFB.4yAcESz-0"')).toBe(true);
  });

  it('runs every text block, or is told why not', () => {
    const fence = '```';
    const page = (between: string) =>
      `${fence}sh\ncurl -s x\n# {"a":1}\n${fence}\n${between}${fence}text\n{"b":2}\n${fence}\n`;
    expect(() => docSteps('p.md', page('\nSome words.\n\n'))).toThrow(/p\.md:9: a text block/);
    expect(() => docSteps('p.md', page('\n<!-- docs-test: skip: an outline -->\n\n'))).not.toThrow();
    const fromSh = docSteps('p.md', `${fence}sh\ncurl -s x\n${fence}\n\n${fence}text\n{"b":2}\n${fence}\n`);
    expect(fromSh.map((s) => s.expected)).toEqual(['{"b":2}']);
  });
});
