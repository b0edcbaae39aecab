import { describe, expect, it } from 'vitest';
import { csvField, csvRecord, parseCsv } from './csv.ts';

describe('csv (RFC 4180)', () => {
  it('quotes a field with a comma, a quote, CR or LF, and doubles its quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('a\rb')).toBe('"a\rb"');
    expect(csvField('plain')).toBe('plain');
  });
  it('writes Chinese and emoji as they are, null as empty, numbers as digits', () => {
    expect(csvField('通义千问 🚀')).toBe('通义千问 🚀');
    expect(csvField(null)).toBe('');
    expect(csvField(98000)).toBe('98000');
  });
  it('ends a record with CRLF and reads back what it wrote', () => {
    const fields = ['逗号,', '引号"', '换行\r\n第二行', '🚀', '', '=1+1'];
    const text = csvRecord(fields) + csvRecord(['x', 'y']);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([fields, ['x', 'y']]);
  });
});
