import { describe, expect, it } from 'vitest';
import { KEY_COUNT, projectSearchColumns, searchQuery, tagSearchColumns } from './search-terms.ts';

// The columns migrations 000100/000500 backfilled (the SQL search of that time): kept so that an
// old database migrates as it did. The read model's engine is today's search (packages/search).
describe('the search columns of the old SQL search', () => {
  const qwen = {
    name: '通义千问',
    nameEn: 'Qwen',
    slug: 'qwen',
    description: '阿里云通义团队推出的大语言模型系列',
    descriptionEn: "Alibaba Cloud's Qwen family of large language models",
    tags: [{ name: '大语言模型', nameEn: 'LLM' }],
  };

  it('keys a project by name, English name, slug, pinyin and initials', () => {
    const columns = projectSearchColumns(qwen);
    expect(columns.search_keys).toHaveLength(KEY_COUNT);
    expect(columns.search_keys).toEqual(expect.arrayContaining(['qwen', 'tongyiqianwen', 'tyqw']));
    expect(columns.search_name).toContain('qwen');
    expect(columns.search_tags).toContain('llm');
  });

  it('lets a tag be found by pinyin and initials', () => {
    const tag = tagSearchColumns({ name: '大语言模型', nameEn: 'LLM', slug: 'llm' });
    expect(tag.search_name).toContain('dayuyanmoxing');
    expect(tag.search_name).toContain('dyymx');
  });

  it('makes one pattern per distinct term (the whole: the distinct terms joined), and nothing of a query without terms', () => {
    const q = searchQuery('Qwen qwen 模型');
    expect(q?.patterns).toHaveLength(2);
    expect(q?.whole).toBe('qwen模型');
    expect(searchQuery('  ,,  ')).toBeUndefined();
  });
});
