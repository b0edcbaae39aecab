import { describe, expect, it } from 'vitest';
import { fallbackSlug, firstFreeSlug, slugify, slugSource } from './slug.ts';

describe('slugify', () => {
  it.each([
    // the examples of docs/api.md#slugs-identity-ids-and-order
    ['DeepSeek V3', 'deepseek-v3'],
    ['通义千问', 'tong-yi-qian-wen'],
    ['GPT-4o (mini)', 'gpt-4o-mini'],
    ['Node.js', 'nodejs'],
    ['Qwen 通义', 'qwen-tong-yi'],
    // Chinese next to Latin letters and digits: syllables are separated by spaces
    ['通义Qwen', 'tong-yi-qwen'],
    ['文心一言4.0', 'wen-xin-yi-yan-40'],
    // ü is written v; tones are dropped; polyphonic characters follow pinyin-pro's phrase rules
    ['绿色', 'lv-se'],
    ['重庆', 'chong-qing'],
    // diacritics are stripped from Latin letters, other letters are removed
    ['Café Époque', 'cafe-epoque'],
    ['Straße', 'strae'],
    // whitespace of any kind and length is one hyphen; hyphens collapse and are trimmed
    ['  Hello \t\n World  ', 'hello-world'],
    ['a - b', 'a-b'],
    ['--lead and trail--', 'lead-and-trail'],
    ['a\u3000b', 'a-b'],
    // full-width and other punctuation is removed
    ['大模型（LLM）！', 'da-mo-xing-llm'],
    ['C++ & Rust', 'c-rust'],
    ['under_score', 'underscore'],
    // nothing left
    ['!!!', ''],
    ['🚀🔥', ''],
    ['', ''],
  ])('%j → %j', (source, slug) => {
    expect(slugify(source)).toBe(slug);
  });

  it('keeps at most 100 characters and drops a trailing hyphen after cutting', () => {
    expect(slugify('a'.repeat(150))).toBe('a'.repeat(100));
    const cut = slugify(`${'a'.repeat(99)} bcd`);
    expect(cut).toBe('a'.repeat(99));
    expect(slugify('ab '.repeat(60)).length).toBeLessThanOrEqual(100);
    expect(slugify('ab '.repeat(60))).not.toMatch(/-$/);
  });

  it('only ever yields [a-z0-9-] without leading, trailing or double hyphens', () => {
    for (const s of ['Ünïcödé ✓ 测试 ü', 'x--y', ' - ', 'Ａｂｃ', 'ﬁ ligature', 'İstanbul']) {
      expect(slugify(s)).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*)?$/);
    }
  });
});

describe('slugSource', () => {
  it('is nameEn when present, else name', () => {
    expect(slugSource({ name: '通义千问', nameEn: 'Qwen' })).toBe('Qwen');
    expect(slugSource({ name: '通义千问', nameEn: null })).toBe('通义千问');
    expect(slugSource({ name: '通义千问' })).toBe('通义千问');
  });
});

describe('fallbackSlug and firstFreeSlug', () => {
  it('uses the first 8 characters of the id', () => {
    expect(fallbackSlug('project', 'abcdefghijkl')).toBe('project-abcdefgh');
    expect(fallbackSlug('tag', 'zyxwvutsrq')).toBe('tag-zyxwvuts');
  });

  it('numbers repeats from 2', () => {
    expect(firstFreeSlug('ai', new Set())).toBe('ai');
    expect(firstFreeSlug('ai', new Set(['ai']))).toBe('ai-2');
    expect(firstFreeSlug('ai', new Set(['ai', 'ai-2', 'ai-4']))).toBe('ai-3');
  });
});
