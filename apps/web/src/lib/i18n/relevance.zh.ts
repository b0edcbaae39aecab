import type { relevanceEn } from './relevance.en.ts';

export const relevanceZh: typeof relevanceEn = {
  stars: '星标',
  downloads: '下载量',
  field_signals: '热度信号',
  pinsTitle: '置顶结果',
  pinsHelp:
    '为某个查询指定最先显示的项目（按此顺序，即使它们不含查询词）和从不显示的项目。多个 slug 用逗号分隔。',
  pinsQuery: '查询',
  pinsFirst: '最先显示',
  pinsHide: '隐藏',
  pinsRemove: (query) => (query.trim() ? `删除“${query.trim()}”的置顶` : '删除此置顶'),
  pinsAdd: '添加置顶',
  pinsCount: (n) => `${n} 条置顶`,
  pinsSave: '保存置顶',
  pinsSaved: '已保存：搜索已开始使用。',
  pinsPreview: (q) => `“${q}”的第一页（保存后）`,
  pinsPreviewEmpty: '不会显示任何项目。',
  pinsPinned: '置顶',
};
