import { describe, expect, it } from 'vitest';
import { ANSWER_BODY_BYTES, answerBody, answerHeaders, sentRequest } from './webhook-exchange.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('what an attempt keeps of its exchange', () => {
  it('keeps a whole body as it is, and never a split character of a cut one', () => {
    expect(answerBody(bytes('{"ok":true}'), false)).toBe('{"ok":true}');
    // "中" is 3 bytes: 4096 = 3·1365 + 1, so the cut falls inside the 1366th character
    const cjk = bytes('中'.repeat(2000)).subarray(0, ANSWER_BODY_BYTES);
    const kept = answerBody(cjk, true);
    expect(kept).toBe('中'.repeat(1365));
    expect(kept).not.toContain('\uFFFD');
    // a 4-byte character cut after 1, 2 or 3 of its bytes; and one that fits exactly
    for (const n of [1, 2, 3]) expect(answerBody(bytes('ab😀').subarray(0, 2 + n), true)).toBe('ab');
    expect(answerBody(bytes('ab😀'), true)).toBe('ab😀');
    expect(answerBody(bytes('é'.repeat(10)).subarray(0, 7), true)).toBe('ééé');
  });

  it('shows bytes that are not UTF-8, and NUL, as U+FFFD (the database holds no NUL)', () => {
    expect(answerBody(new Uint8Array([0x61, 0xff, 0x00, 0x62]), false)).toBe('a\uFFFD\uFFFDb');
  });

  it('keeps headers lower-case, repeated ones joined, at most 50 and 8 KB', () => {
    expect(answerHeaders(['Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'set-cookie', 'b=2'])).toEqual({
      'content-type': 'text/plain',
      'set-cookie': 'a=1, b=2',
    });
    const many = Array.from({ length: 80 }, (_, i) => [`X-H${i}`, 'v']).flat();
    expect(Object.keys(answerHeaders(many))).toHaveLength(50);
    const big = ['A', 'x'.repeat(5000), 'B', 'y'.repeat(5000), 'C', 'z'];
    expect(answerHeaders(big)).toEqual({ a: 'x'.repeat(5000) });
    const proto = answerHeaders(['__proto__', 'x']);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });

  it('records the request with the content-length sent', () => {
    expect(sentRequest('https://h.example/x', { 'webhook-id': 'chg_1' }, '{"a":"é"}')).toEqual({
      url: 'https://h.example/x',
      headers: { 'webhook-id': 'chg_1', 'content-length': '10' },
      body: '{"a":"é"}',
    });
  });
});
