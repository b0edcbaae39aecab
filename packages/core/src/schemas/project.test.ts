import { describe, expect, it } from 'vitest';
import { codePointLength } from './common.ts';
import { ProjectInput, repeatedLinkUrl, repeatedLinkUrlDetail } from './project.ts';

const valid = {
  name: '深度求索',
  description: 'A valid description.',
  tags: [{ name: 'llm' }],
  links: [{ type: 'CODEHOST', url: 'https://github.com/deepseek-ai/DeepSeek-V3' }],
};

const paths = (input: unknown) => {
  const r = ProjectInput.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

describe('ProjectInput', () => {
  it('accepts the minimal input and the limits themselves', () => {
    expect(paths(valid)).toEqual([]);
    expect(
      paths({
        ...valid,
        name: '名'.repeat(200),
        nameEn: 'n'.repeat(200),
        description: '0123456789',
        descriptionEn: 'd'.repeat(500),
        content: 'c'.repeat(10000),
        tags: Array.from({ length: 10 }, (_, i) => ({ name: `t${i}` })),
        links: Array.from({ length: 10 }, (_, i) => ({ type: 'PAPER', url: `http://example.org/${i}` })),
      }),
    ).toEqual([]);
  });

  it.each([
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(201) }],
    ['nameEn', { nameEn: '' }],
    ['description', { description: '123456789' }],
    ['description', { description: 'x'.repeat(501) }],
    ['descriptionEn', { descriptionEn: 'short' }],
    ['content', { content: 'x'.repeat(10001) }],
    ['contentEn', { contentEn: 'x'.repeat(10001) }],
    ['status', { status: 'DELETED' }],
    ['tags', { tags: [] }],
    ['tags', { tags: Array.from({ length: 11 }, (_, i) => ({ name: `t${i}` })) }],
    ['tags.0.name', { tags: [{ name: '' }] }],
    ['links', { links: [] }],
    ['links.0.type', { links: [{ type: 'GITHUB', url: 'https://github.com/a/b' }] }],
    ['links.0.url', { links: [{ type: 'WEBSITE', url: 'ftp://example.org' }] }],
    ['links.0.url', { links: [{ type: 'WEBSITE', url: 'example.org' }] }],
    ['links.0.url', { links: [{ type: 'WEBSITE', url: '' }] }],
    ['links.0.url', { links: [{ type: 'WEBSITE', url: `https://example.org/${'a'.repeat(2048)}` }] }],
    ['source', { source: 'a\u0000b' }],
  ])('refuses a bad %s', (path, over) => {
    expect(paths({ ...valid, ...over })).toContain(path);
  });

  it('counts characters as code points', () => {
    expect(codePointLength('😀😀')).toBe(2);
    expect(codePointLength('a\ud800')).toBe(2);
    expect(paths({ ...valid, name: '😀'.repeat(200) })).toEqual([]);
    expect(paths({ ...valid, name: '😀'.repeat(201) })).toEqual(['name']);
    expect(paths({ ...valid, description: '😀'.repeat(9) })).toEqual(['description']);
  });

  it('takes null in an optional field as not given', () => {
    const r = ProjectInput.parse({
      ...valid,
      nameEn: null,
      content: null,
      status: null,
      tags: [{ name: 't', nameEn: null }],
      links: [{ type: 'PAPER', url: 'https://a.org', title: null }],
    });
    expect(r.nameEn).toBeUndefined();
    expect(r.status).toBeUndefined();
    expect(r.links[0]?.title).toBeUndefined();
    expect(paths({ ...valid, name: null })).toEqual(['name']);
  });

  it('drops unknown fields', () => {
    const r = ProjectInput.parse({ ...valid, extra: 1 });
    expect(r).not.toHaveProperty('extra');
  });
});

describe('repeatedLinkUrl', () => {
  it('finds the second listing of a url, whatever the link types', () => {
    const links = [
      { type: 'WEBSITE' as const, url: 'https://a.org' },
      { type: 'PAPER' as const, url: 'https://b.org' },
      { type: 'CODEHOST' as const, url: 'https://a.org' },
    ];
    expect(repeatedLinkUrl({ links })).toEqual({
      url: 'https://a.org',
      index: 2,
      first: { url: 'https://a.org', index: 0 },
    });
    expect(repeatedLinkUrl({ links: links.slice(0, 2) })).toBeUndefined();
  });

  it('finds another spelling of one url key', () => {
    const links = [
      { type: 'CODEHOST' as const, url: 'https://github.com/QwenLM/Qwen' },
      { type: 'WEBSITE' as const, url: 'https://qwen.ai' },
      { type: 'CODEHOST' as const, url: 'http://www.github.com/qwenlm/qwen.git' },
    ];
    expect(repeatedLinkUrl({ links })).toEqual({
      url: 'http://www.github.com/qwenlm/qwen.git',
      index: 2,
      first: { url: 'https://github.com/QwenLM/Qwen', index: 0 },
    });
    expect(repeatedLinkUrlDetail({ links }, 'projects.0.')).toBe(
      'projects.0.links.2.url: The url "http://www.github.com/qwenlm/qwen.git" is listed twice ' +
        '(as "https://github.com/QwenLM/Qwen" at links.0.url)',
    );
  });
});
