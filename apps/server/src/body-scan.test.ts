import { describe, expect, it } from 'vitest';
import { BodyScanner, scanBody } from './body-scan.ts';
import { type BodyScan, NOT_A_STRING } from './body-scan.types.ts';

const shape = {
  array: false,
  properties: { projects: { array: true, maxItems: 3, items: { array: false } } },
};

/** The scan of `text` fed in chunks cut at `cuts` (byte offsets). */
function scanIn(text: string | Buffer, cuts: number[], needKey = true): BodyScan & { blank: boolean } {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const scanner = new BodyScanner(shape, { needKey });
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    scanner.feed(bytes.subarray(at, cut));
    at = cut;
  }
  return { ...scanner.end(), blank: scanner.blank };
}

/** The same scan whole, and cut in two at every byte: all must agree (docs/keys-and-limits.md#bodies). */
function everySplit(text: string | Buffer, needKey = true) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const whole = scanIn(bytes, [], needKey);
  for (let cut = 0; cut <= bytes.length; cut++)
    expect(scanIn(bytes, [cut], needKey), `cut at ${cut}`).toEqual(whole);
  // and byte by byte
  expect(
    scanIn(
      bytes,
      Array.from({ length: bytes.length }, (_, i) => i),
      needKey,
    ),
  ).toEqual(whole);
  return whole;
}

describe('the body scan, whole or in chunks (docs/keys-and-limits.md#bodies)', () => {
  it('finds the top-level key, escaped or not, wherever the chunks are cut', () => {
    expect(everySplit('{"projects":[{}],"apiKey":"k-1"}')).toMatchObject({
      apiKey: 'k-1',
      tooLong: undefined,
    });
    expect(everySplit('{"apiKey":"a\\"b\\\\c\\u00e9","projects":[]}')).toMatchObject({ apiKey: 'a"b\\cé' });
    expect(everySplit('{"api\\u004bey":"x"}')).toMatchObject({ apiKey: 'x' });
    expect(everySplit('{"apiKey":"密钥"}')).toMatchObject({ apiKey: '密钥' });
    expect(everySplit('{"apiKey":12}')).toMatchObject({ apiKey: NOT_A_STRING });
    expect(everySplit('{"apiKey":{"a":1}}')).toMatchObject({ apiKey: NOT_A_STRING });
    expect(everySplit('{"x":{"apiKey":"nested"}}')).toMatchObject({ apiKey: undefined });
    expect(everySplit('{"apiKey":"first","apiKey":"last"}')).toMatchObject({ apiKey: 'last' });
  });

  it('names the first array over its maximum, and still finds a key after it', () => {
    const body = '{"projects":[{},{},{},{"a":"]"}],"apiKey":"after"}';
    expect(everySplit(body)).toMatchObject({
      kind: 'scanned',
      apiKey: 'after',
      tooLong: 'projects: Too big: expected array to have <=3 items',
    });
    // a key sent in a header: the rest is not read for one
    expect(everySplit(body, false)).toMatchObject({ apiKey: undefined, tooLong: expect.any(String) });
    expect(everySplit('{"projects":[{},{},{},{}],"x":{"apiKey":"deep"}}')).toMatchObject({
      apiKey: undefined,
    });
  });

  it('stops at a body nested too deep', () => {
    expect(everySplit(`{"a":${'['.repeat(70)}${']'.repeat(70)}}`)).toMatchObject({ kind: 'too-deep' });
  });

  it('still finds the top-level key of a body nested too deep, before or after the deep part', () => {
    const deep = `${'['.repeat(70)}${']'.repeat(70)}`;
    expect(everySplit(`{"apiKey":"k-1","a":${deep}}`)).toEqual({
      kind: 'too-deep',
      apiKey: 'k-1',
      blank: false,
    });
    expect(everySplit(`{"a":{"b":${deep},"apiKey":"inner"},"apiKey":"k-2"}`)).toMatchObject({
      kind: 'too-deep',
      apiKey: 'k-2',
    });
    expect(everySplit(`{"a":${deep},"apiKey":7}`)).toMatchObject({ kind: 'too-deep', apiKey: NOT_A_STRING });
    // a key sent in a header (or a body that is an array): the rest is not read for one
    expect(everySplit(`{"a":${deep},"apiKey":"k-3"}`, false)).toMatchObject({
      kind: 'too-deep',
      apiKey: undefined,
    });
    expect(everySplit(`[${deep},{"apiKey":"k-4"}]`)).toMatchObject({ kind: 'too-deep', apiKey: undefined });
  });

  it('skips a byte order mark and says when a body is only whitespace', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(everySplit(Buffer.concat([bom, Buffer.from('{"apiKey":"b"}')]))).toMatchObject({
      apiKey: 'b',
      blank: false,
    });
    expect(everySplit(Buffer.concat([bom, Buffer.from(' \n\t ')]))).toMatchObject({ blank: true });
    expect(everySplit('  {}')).toMatchObject({ blank: false });
  });

  it('reads a million items without keeping them, and agrees with scanBody', () => {
    const body = Buffer.from(`{"projects":[${'{},'.repeat(999_999)}{}]}`);
    const scanner = new BodyScanner(shape, { needKey: true });
    for (let at = 0; at < body.length; at += 65_536) scanner.feed(body.subarray(at, at + 65_536));
    expect(scanner.acceptable).toBe(false);
    expect(scanner.end()).toEqual(scanBody(body, shape, { needKey: true }));
  });
});
