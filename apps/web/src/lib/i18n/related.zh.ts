import type { relatedEn } from './related.en.ts';

export const relatedZh: typeof relatedEn = {
  relatedTitle: '相关项目',
  relatedNone: '暂无相关项目。',
  relatedTags: '标签',
  relatedWords: '词语',
  relatedOwner: '同一所有者',
  relatedList: (items) => items.join('、'),
};
