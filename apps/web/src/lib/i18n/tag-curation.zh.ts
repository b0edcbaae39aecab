import type { tagCurationEn } from './tag-curation.en.ts';

export const tagCurationZh: typeof tagCurationEn = {
  summaryLabel: '摘要（可选）',
  summaryHelp: '说明为什么这样改：随本次写入的版本保存，并显示在历史中。',
  revisionSummary: '摘要：',
  curateTagsLink: '重命名与合并标签',
  curateTagsTitle: '整理标签',
  curateTagsHelp:
    '修改标签的中文或英文名称，或把一个标签合并到另一个：它的项目改用保留的标签，它的地址和名称成为保留标签的别名。',
  allTags: '全部标签',
  tagSlug: '地址',
  tagAliases: (slugs) => `别名：${slugs}`,
  tagNoAliases: '没有别名',
  tagNameZh: '中文名称',
  tagNameEnLabel: '英文名称',
  renameTag: (name) => `重命名 ${name}…`,
  renameSave: '保存名称',
  renamedNote: (name) => `已重命名为 ${name}。`,
  renameUnchanged: '没有任何改动。',
  renameConflict: '已有另一个标签叫这个名字：见标出的字段。',
  tagConflict: '与另一个标签冲突（见下方）。请重新加载列表后再试。',
  mergeTag: (name) => `把 ${name} 合并到…`,
  mergeTitle: (name) => `把 ${name} 合并到另一个标签`,
  mergeFind: '查找要保留的标签',
  mergeNoMatch: '没有其他匹配的标签。',
  mergeAway: '被合并',
  mergeKept: '保留',
  mergeWhat: (from, into, n) =>
    `带“${from}”标签的 ${n} 个项目改用“${into}”；“${from}”成为“${into}”的别名（按它筛选或写入都会得到“${into}”）。此操作无法在这里撤销。`,
  mergeTagYes: (from, into) => `把 ${from} 合并到 ${into}`,
  tagMergedNote: (from, into, n) => `已把 ${from} 合并到 ${into}：${n} 个项目有改动。`,
  tagMergeConflict: '合并被拒绝：标签不能合并到它自己或它的别名，也不能合并两次。请重新加载列表。',
};
