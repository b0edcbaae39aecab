import { describe, expect, it } from 'vitest';
import { type Draft, differing, patchOf } from './draft.ts';

const base: Draft = {
  name: '羊驼',
  nameEn: 'Llama',
  description: '一个开源的大语言模型。',
  descriptionEn: '',
  content: 'x',
  contentEn: '',
  status: 'ACTIVE',
  tags: [{ name: 'llm', nameEn: '' }],
  links: [{ type: 'CODEHOST', url: 'https://github.com/a/b', title: '' }],
};

describe('the edit form', () => {
  it('sends only what changed; an emptied optional field is null', () => {
    expect(patchOf(base, base)).toEqual({});
    expect(patchOf(base, { ...base, nameEn: 'Llama 2', content: ' ' })).toEqual({
      nameEn: 'Llama 2',
      content: null,
    });
    expect(patchOf(base, { ...base, tags: [...base.tags, { name: 'meta', nameEn: 'Meta' }] })).toEqual({
      tags: [{ name: 'llm' }, { name: 'meta', nameEn: 'Meta' }],
    });
  });

  it('names the fields two drafts differ in', () => {
    expect(differing(base, { ...base, status: 'ARCHIVED', name: '羊驼 2' })).toEqual(['name', 'status']);
  });
});
