import { describe, expect, it } from 'vitest';
import { fieldErrors, fieldMessages, pathOf, problemOf } from './field-errors.ts';
import { en } from './i18n/en.ts';
import { zh } from './i18n/zh.ts';

describe('field errors', () => {
  it('reads each detail as a field path and a problem the console knows', () => {
    const details = [
      'links.0.url: Invalid URL: expected an HTTP or HTTPS URL',
      'name: Too big: expected string to have <=200 characters',
      'description: Too small: expected string to have >=1 characters',
      'status: Invalid option: expected one of "ACTIVE"|"ARCHIVED"',
      'links.1.url: The url "https://a.example/x" is listed twice',
      'tags: Too big: expected array to have <=10 items',
      'tags.0.name: Invalid input: expected string, received undefined',
      'links.2.url: Too big: expected URL to have <=2048 bytes',
      'name: Something else',
      'Project "x" was merged into "y"',
    ];
    expect(Object.fromEntries(fieldErrors(details))).toEqual({
      'links.0.url': { key: 'invalidUrl' },
      name: { key: 'tooLong', max: 200 },
      description: { key: 'required' },
      status: { key: 'badOption' },
      'links.1.url': { key: 'listedTwice' },
      tags: { key: 'tooMany', max: 10 },
      'tags.0.name': { key: 'required' },
      'links.2.url': { key: 'urlTooLong', max: 2048 },
    });
    expect(pathOf('Project "x" was merged into "y"')).toBeUndefined();
    // the summary header is the summary field's; a tag rename's 409 names the tag with the name
    expect(
      Object.fromEntries(
        fieldErrors([
          'header X-Directory-Summary: Must be at most 500 characters',
          'nameEn: tag "notes" is already named "Notes"; merge the two tags instead',
          'header X-Directory-Actor: Must be at most 100 characters',
        ]),
      ),
    ).toEqual({ summary: { key: 'tooLong', max: 500 }, nameEn: { key: 'tagNameTaken', slug: 'notes' } });
    expect(
      problemOf(
        'Must not contain control, format, separator or invisible characters (such as bidi overrides, zero-width characters or Hangul fillers)',
      ),
    ).toEqual({ key: 'badText' });
    expect(problemOf('Expected something new')).toEqual({ key: 'invalid' });
  });

  it('says every problem in the page language, unknown ones as a translated fallback', () => {
    const details = [
      'links.0.url: Invalid URL: expected an HTTP or HTTPS URL',
      'name: Too big: expected string to have <=200 characters',
      'content: A message the console has never seen',
    ];
    const inZh = fieldMessages(zh, details);
    expect(inZh.get('links.0.url')).toBe('不是有效的网址：须以 http:// 或 https:// 开头。');
    expect(inZh.get('name')).toBe('最多 200 个字符。');
    expect(inZh.get('content')).toBe('此项无效。');
    for (const message of inZh.values()) expect(message).not.toMatch(/Invalid|Too big|never/);
    const inEn = fieldMessages(en, details);
    expect(inEn.get('content')).toBe('This field is not valid.');
    expect(inEn.get('name')).toBe('At most 200 characters.');
    const taken = ['name: tag "bi-ji" is already named "笔记"; merge the two tags instead'];
    expect(fieldMessages(zh, taken).get('name')).toBe('标签“bi-ji”已叫这个名字：请改为合并这两个标签。');
    expect(fieldMessages(en, taken).get('name')).toBe(
      'The tag "bi-ji" already has this name: merge the two tags instead.',
    );
  });
});
