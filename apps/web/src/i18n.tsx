import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

export type Lang = 'zh' | 'en';
const STORAGE = 'directory.lang';

const en = {
  appName: 'Project Directory',
  skipToContent: 'Skip to content',
  nav: 'Main',
  navSearch: 'Search',
  navTags: 'Tags',
  navQueue: 'Queue',
  navChanges: 'Changes',
  navApi: 'API reference',
  language: 'Language',
  switchTo: '中文',
  switchToLabel: 'Switch to Chinese',
  loading: 'Loading…',
  error: 'Something went wrong',
  retry: 'Try again',
  notFound: 'Page not found',
  backToSearch: 'Back to search',
  // search
  searchLabel: 'Search projects',
  searchPlaceholder: 'Chinese, pinyin, initials or English — e.g. 通义, tyqw, qwen',
  results: (n: number, exact: boolean) =>
    `${exact ? '' : 'more than '}${n} ${n === 1 ? 'project' : 'projects'}`,
  noResults: 'No project matches.',
  filters: 'Filters',
  facetTags: 'Tags',
  facetStatus: 'Status',
  facetLinkTypes: 'Link types',
  anyTag: 'Match any selected tag',
  clearFilters: 'Clear filters',
  sortBy: 'Sort by',
  order: 'Order',
  sortRelevance: 'Relevance',
  sortUpdated: 'Last updated',
  sortCreated: 'Created',
  sortName: 'Name',
  orderAsc: 'Ascending',
  orderDesc: 'Descending',
  loadMore: 'Load more',
  shown: (n: number, total: number) => `Showing ${n} of ${total}`,
  matched: 'matched on',
  // statuses and link types
  ACTIVE: 'Active',
  ARCHIVED: 'Archived',
  WEBSITE: 'Website',
  CODEHOST: 'Code',
  MODELHUB: 'Models',
  PAPER: 'Paper',
  PENDING: 'Pending',
  IN_PROGRESS: 'In progress',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  // project
  chinese: '中文',
  english: 'English',
  description: 'Description',
  content: 'Details',
  noContent: 'No details written yet.',
  links: 'Links',
  tags: 'Tags',
  status: 'Status',
  source: 'Source',
  created: 'Created',
  updated: 'Updated',
  projectNotFound: 'No project with this address.',
  // tags
  tagsTitle: 'All tags',
  tagFilter: 'Filter tags',
  projectsCount: (n: number) => `${n} ${n === 1 ? 'project' : 'projects'}`,
  tagName: 'Tag',
  tagCount: 'Projects',
  // key
  keyTitle: 'This page needs the API key',
  keyHelp: 'The key is kept in this browser tab only and sent with each request of this console.',
  keyLabel: 'API key',
  keySubmit: 'Continue',
  keyForget: 'Forget key',
  keyRefused: 'The key was refused. Enter it again.',
  // queue
  queueTitle: 'Discovery queue',
  countsByStatus: 'Tasks by status',
  claimable: 'Claimable',
  delayed: 'Delayed',
  leased: 'Leased',
  oldestClaimable: 'Oldest claimable',
  reaped: 'Expired leases reaped',
  none: '—',
  tasks: 'Tasks',
  taskUrl: 'Source URL',
  taskType: 'Type',
  taskStatus: 'Status',
  taskAttempts: 'Attempts',
  taskCreated: 'Created',
  noTasks: 'No task in this state.',
  all: 'All',
  details: 'Details',
  close: 'Close',
  retryTask: 'Retry',
  retried: 'Back in the queue',
  explorationData: 'Exploration data',
  explorationSummary: 'Summary',
  errorMessage: 'Error',
  retries: 'Retries',
  worker: 'Worker',
  leaseExpires: 'Lease expires',
  availableAt: 'Available from',
  project: 'Project',
  addTasks: 'Add tasks',
  addHelp: 'Paste source URLs, one a line. They are checked for duplicates first.',
  urls: 'URLs',
  check: 'Check for duplicates',
  willCreate: 'New',
  duplicate: 'Duplicate',
  createN: (n: number) => `Add ${n} ${n === 1 ? 'task' : 'tasks'}`,
  invalidLine: 'Not added',
  invalidWhy: (tooLong: boolean): string =>
    tooLong ? 'Longer than 2048 bytes' : 'Not an http:// or https:// URL',
  firstOnly: (n: number) => `Only the first ${n} URLs are checked; add the rest after these.`,
  added: (created: number, skipped: number) => `Added ${created}, skipped ${skipped}.`,
  live: 'Live',
  liveOff: 'Refreshed every 5 s',
  seconds: (s: number) => formatDuration(s, 'en'),
  // changes
  changesTitle: 'Changes',
  changesHelp: 'Every write, as it happens.',
  changeType: 'Change',
  changeAt: 'Time',
  changeSubject: 'Subject',
  waiting: 'Waiting for changes…',
  'project.created': 'Project created',
  'project.updated': 'Project updated',
  'project.deleted': 'Project deleted',
  'project.merged': 'Project merged',
  'task.created': 'Task created',
  'task.updated': 'Task updated',
  unavailable: 'Not available on this server yet.',
  // duplicates and merges
  navDuplicates: 'Duplicates',
  duplicatesTitle: 'Duplicates',
  duplicatesHelp:
    'Projects that share a link (the same repository, model or paper, however its URL is spelled) or a name. Keep one, merge the others into it: their links, tags and tasks move, and their addresses lead to it.',
  noDuplicates: 'No duplicates found.',
  reason_link: 'Same link',
  reason_name: 'Same name',
  keep: 'Keep',
  kept: 'Kept',
  mergeInto: (from: string, into: string) => `Merge ${from} into ${into}…`,
  mergeConfirm: (from: string, into: string) =>
    `Merge “${from}” into “${into}”? “${from}” is removed; its links, tags and tasks move to “${into}”, and its address leads there. This cannot be undone here.`,
  mergeYes: 'Merge',
  cancel: 'Cancel',
  mergedNote: (from: string, into: string) => `Merged ${from} into ${into}.`,
  aliasNote: (alias: string) => `“${alias}” was merged into this project; you were taken here.`,
  // history, locks, deleted projects
  tabProject: 'Project',
  tabHistory: 'History',
  historyTitle: 'History',
  historyHelp:
    'Every write of this project is kept: pick two revisions to compare them side by side, in both languages, or revert the project to one.',
  revision: 'Revision',
  revisionN: (n: number) => `Revision ${n}`,
  action_created: 'Created',
  action_updated: 'Updated',
  action_deleted: 'Deleted',
  via: 'by',
  actorNone: 'unknown',
  compareFrom: 'From',
  compareTo: 'To',
  compareTitle: (from: number, to: number) => `Revision ${from} → revision ${to}`,
  noChanges: 'No differences.',
  changed: 'changed',
  field_name: 'Name',
  field_description: 'Description',
  field_content: 'Content',
  field_status: 'Status',
  field_source: 'Source',
  field_tags: 'Tags',
  field_links: 'Links',
  field_lock: 'Lock',
  revertTo: (n: number) => `Revert to revision ${n}…`,
  revertConfirm: (n: number) =>
    `Make the project revision ${n}'s content again? Its fields, tags and links are replaced by that revision's; the current content stays in the history.`,
  revertYes: 'Revert',
  revertedNote: (n: number, made: number | null) =>
    made === null
      ? `The project already is revision ${n}'s content.`
      : `Reverted to revision ${n} (saved as revision ${made}).`,
  olderRevisions: 'Older revisions',
  lockTitle: 'Lock',
  lockHelp:
    'Locked fields are kept when an import or a crawler updates this project; the others are replaced.',
  notLocked: 'Not locked: imports and crawlers replace every field.',
  lockedFields: (fields: string) => `Locked: ${fields}`,
  lockReason: 'Reason',
  lockEdit: 'Change lock…',
  lockSave: 'Save lock',
  unlock: 'Unlock',
  lockSaved: 'Lock saved.',
  unlocked: 'Unlocked.',
  lockAll: 'All fields',
  lockField_name: 'Chinese name',
  lockField_nameEn: 'English name',
  lockField_description: 'Chinese description',
  lockField_descriptionEn: 'English description',
  lockField_content: 'Chinese content',
  lockField_contentEn: 'English content',
  lockField_status: 'Status',
  lockField_tags: 'Tags',
  lockField_links: 'Links',
  needKey: 'Enter the API key to change this.',
  navDeleted: 'Deleted',
  deletedTitle: 'Deleted projects',
  deletedHelp:
    'Deleted and merged-away projects keep their history for a while: restore one exactly as it was.',
  noDeleted: 'No deleted projects.',
  deletedAt: 'Deleted',
  restore: (slug: string) => `Restore ${slug}…`,
  restoreConfirm: (slug: string) =>
    `Restore “${slug}” with its fields, tags, links and lock as they were when it was deleted?`,
  restoreYes: 'Restore',
  restoredNote: (slug: string) => `Restored ${slug}.`,
  viaMerge: 'merged',
  viaDelete: 'deleted',
  navSynonyms: 'Synonyms',
  synonymsTitle: 'Search synonyms',
  synonymsHelp:
    'A search word equal to a term of a set also finds the other terms of its set, ranked just below the word itself. Every server applies a change within a second.',
  synonymsLabel: 'One set per line, terms separated by commas',
  synonymsCount: (n: number) => (n === 1 ? '1 set' : `${n} sets`),
  synonymsShort: (lines: number[]) =>
    `A set needs at least two terms: line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}`,
  synonymsSave: 'Save synonyms',
  synonymsSaved: 'Saved: searches use them now.',
};

export type Messages = typeof en;

const zh: Messages = {
  appName: '项目目录',
  skipToContent: '跳到正文',
  nav: '主导航',
  navSearch: '搜索',
  navTags: '标签',
  navQueue: '队列',
  navChanges: '变更',
  navApi: 'API 文档',
  language: '语言',
  switchTo: 'English',
  switchToLabel: '切换到英文',
  loading: '加载中…',
  error: '出错了',
  retry: '重试',
  notFound: '找不到页面',
  backToSearch: '返回搜索',
  searchLabel: '搜索项目',
  searchPlaceholder: '中文、拼音、首字母或英文，如 通义、tyqw、qwen',
  results: (n, exact) => `${exact ? '' : '超过 '}${n} 个项目`,
  noResults: '没有匹配的项目。',
  filters: '筛选',
  facetTags: '标签',
  facetStatus: '状态',
  facetLinkTypes: '链接类型',
  anyTag: '满足任一所选标签即可',
  clearFilters: '清除筛选',
  sortBy: '排序',
  order: '顺序',
  sortRelevance: '相关度',
  sortUpdated: '最近更新',
  sortCreated: '创建时间',
  sortName: '名称',
  orderAsc: '升序',
  orderDesc: '降序',
  loadMore: '加载更多',
  shown: (n, total) => `已显示 ${n} / ${total}`,
  matched: '匹配字段',
  ACTIVE: '活跃',
  ARCHIVED: '已归档',
  WEBSITE: '官网',
  CODEHOST: '代码',
  MODELHUB: '模型',
  PAPER: '论文',
  PENDING: '待处理',
  IN_PROGRESS: '进行中',
  COMPLETED: '已完成',
  FAILED: '失败',
  chinese: '中文',
  english: 'English',
  description: '简介',
  content: '详情',
  noContent: '暂无详情。',
  links: '链接',
  tags: '标签',
  status: '状态',
  source: '来源',
  created: '创建于',
  updated: '更新于',
  projectNotFound: '没有这个地址的项目。',
  tagsTitle: '全部标签',
  tagFilter: '筛选标签',
  projectsCount: (n) => `${n} 个项目`,
  tagName: '标签',
  tagCount: '项目数',
  keyTitle: '此页面需要 API 密钥',
  keyHelp: '密钥只保存在当前浏览器标签页中，并随本控制台的每个请求发送。',
  keyLabel: 'API 密钥',
  keySubmit: '继续',
  keyForget: '清除密钥',
  keyRefused: '密钥被拒绝，请重新输入。',
  queueTitle: '发现队列',
  countsByStatus: '各状态任务数',
  claimable: '可领取',
  delayed: '延后',
  leased: '租用中',
  oldestClaimable: '最早可领取',
  reaped: '回收的过期租约',
  none: '—',
  tasks: '任务',
  taskUrl: '来源网址',
  taskType: '类型',
  taskStatus: '状态',
  taskAttempts: '尝试次数',
  taskCreated: '创建于',
  noTasks: '没有此状态的任务。',
  all: '全部',
  details: '详情',
  close: '关闭',
  retryTask: '重试',
  retried: '已重新排队',
  explorationData: '探索数据',
  explorationSummary: '摘要',
  errorMessage: '错误',
  retries: '重试次数',
  worker: '执行者',
  leaseExpires: '租约到期',
  availableAt: '可领取时间',
  project: '项目',
  addTasks: '添加任务',
  addHelp: '粘贴来源网址，每行一个。先检查是否重复。',
  urls: '网址',
  check: '检查重复',
  willCreate: '新增',
  duplicate: '重复',
  createN: (n) => `添加 ${n} 个任务`,
  invalidLine: '不添加',
  invalidWhy: (tooLong) => (tooLong ? '超过 2048 字节' : '不是 http:// 或 https:// 网址'),
  firstOnly: (n) => `一次只检查前 ${n} 个网址；其余请在这些添加之后再添加。`,
  added: (created, skipped) => `已添加 ${created} 个，跳过 ${skipped} 个。`,
  live: '实时',
  liveOff: '每 5 秒刷新',
  seconds: (s) => formatDuration(s, 'zh'),
  changesTitle: '变更',
  changesHelp: '每一次写入，实时显示。',
  changeType: '变更',
  changeAt: '时间',
  changeSubject: '对象',
  waiting: '等待变更…',
  'project.created': '项目已创建',
  'project.updated': '项目已更新',
  'project.deleted': '项目已删除',
  'project.merged': '项目已合并',
  'task.created': '任务已创建',
  'task.updated': '任务已更新',
  unavailable: '此服务器尚不支持。',
  navDuplicates: '重复项',
  duplicatesTitle: '重复项',
  duplicatesHelp:
    '共用同一链接（同一仓库、模型或论文，无论网址怎样拼写）或同一名称的项目。保留一个，把其余的合并进来：它们的链接、标签和任务随之转入，原地址也会跳转到保留的项目。',
  noDuplicates: '没有发现重复项。',
  reason_link: '链接相同',
  reason_name: '名称相同',
  keep: '保留',
  kept: '已保留',
  mergeInto: (from, into) => `将 ${from} 合并到 ${into}…`,
  mergeConfirm: (from, into) =>
    `将“${from}”合并到“${into}”？“${from}”会被移除，它的链接、标签和任务转入“${into}”，原地址跳转到那里。此操作无法在此撤销。`,
  mergeYes: '合并',
  cancel: '取消',
  mergedNote: (from, into) => `已将 ${from} 合并到 ${into}。`,
  aliasNote: (alias) => `“${alias}”已合并到本项目，已为你跳转到这里。`,
  tabProject: '项目',
  tabHistory: '历史',
  historyTitle: '历史',
  historyHelp: '本项目的每次写入都会保留：选两个版本并排比较（中英文），或把项目恢复到某个版本。',
  revision: '版本',
  revisionN: (n) => `版本 ${n}`,
  action_created: '创建',
  action_updated: '更新',
  action_deleted: '删除',
  via: '途径',
  actorNone: '未知',
  compareFrom: '从',
  compareTo: '到',
  compareTitle: (from, to) => `版本 ${from} → 版本 ${to}`,
  noChanges: '没有差异。',
  changed: '有改动',
  field_name: '名称',
  field_description: '简介',
  field_content: '正文',
  field_status: '状态',
  field_source: '来源',
  field_tags: '标签',
  field_links: '链接',
  field_lock: '锁定',
  revertTo: (n) => `恢复到版本 ${n}…`,
  revertConfirm: (n) =>
    `把项目恢复为版本 ${n} 的内容？字段、标签和链接都会换成该版本的；当前内容仍保留在历史中。`,
  revertYes: '恢复',
  revertedNote: (n, made) =>
    made === null ? `项目已经是版本 ${n} 的内容。` : `已恢复到版本 ${n}（保存为版本 ${made}）。`,
  olderRevisions: '更早的版本',
  lockTitle: '锁定',
  lockHelp: '导入或爬虫更新本项目时，锁定的字段保持不变，其余字段照常替换。',
  notLocked: '未锁定：导入和爬虫会替换所有字段。',
  lockedFields: (fields) => `已锁定：${fields}`,
  lockReason: '原因',
  lockEdit: '修改锁定…',
  lockSave: '保存锁定',
  unlock: '解除锁定',
  lockSaved: '已保存锁定。',
  unlocked: '已解除锁定。',
  lockAll: '全部字段',
  lockField_name: '中文名称',
  lockField_nameEn: '英文名称',
  lockField_description: '中文简介',
  lockField_descriptionEn: '英文简介',
  lockField_content: '中文正文',
  lockField_contentEn: '英文正文',
  lockField_status: '状态',
  lockField_tags: '标签',
  lockField_links: '链接',
  needKey: '输入 API 密钥后才能修改。',
  navDeleted: '已删除',
  deletedTitle: '已删除的项目',
  deletedHelp: '被删除或被合并掉的项目会保留一段时间的历史：可以原样恢复。',
  noDeleted: '没有已删除的项目。',
  deletedAt: '删除于',
  restore: (slug) => `恢复 ${slug}…`,
  restoreConfirm: (slug) => `按删除时的样子（字段、标签、链接和锁定）恢复“${slug}”？`,
  navSynonyms: '同义词',
  synonymsTitle: '搜索同义词',
  synonymsHelp:
    '搜索词等于某组中的一个词时，也会找到同组的其他词，排在该词本身的结果之后。每个服务进程在一秒内生效。',
  synonymsLabel: '每行一组，词之间用逗号分隔',
  synonymsCount: (n) => `${n} 组`,
  synonymsShort: (lines) => `每组至少需要两个词：第 ${lines.join('、')} 行`,
  synonymsSave: '保存同义词',
  synonymsSaved: '已保存：搜索已开始使用。',
  restoreYes: '恢复',
  restoredNote: (slug) => `已恢复 ${slug}。`,
  viaMerge: '已合并',
  viaDelete: '已删除',
};

function formatDuration(seconds: number, lang: Lang): string {
  const s = Math.max(0, Math.round(seconds));
  const units: [number, string, string][] = [
    [86400, 'd', '天'],
    [3600, 'h', '小时'],
    [60, 'min', '分钟'],
    [1, 's', '秒'],
  ];
  for (const [size, enUnit, zhUnit] of units) {
    if (s >= size || size === 1) {
      const n = Math.floor(s / size);
      return lang === 'zh' ? `${n} ${zhUnit}` : `${n} ${enUnit}`;
    }
  }
  return String(s);
}

const MESSAGES: Record<Lang, Messages> = { en, zh };

function detectLang(): Lang {
  try {
    const stored = localStorage.getItem(STORAGE);
    if (stored === 'zh' || stored === 'en') return stored;
  } catch {
    // no storage: fall back to the browser's languages
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

interface I18n {
  lang: Lang;
  t: Messages;
  setLang(lang: Lang): void;
  formatDate(iso: string): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(detectLang);
  const setLang = useCallback((next: Lang) => {
    setLangState(next);
    try {
      localStorage.setItem(STORAGE, next);
    } catch {
      // not remembered, still switched
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = MESSAGES[lang].appName;
  }, [lang]);
  const value = useMemo<I18n>(() => {
    const dates = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', {
      dateStyle: 'medium',
      timeStyle: 'medium',
    });
    return { lang, t: MESSAGES[lang], setLang, formatDate: (iso) => dates.format(new Date(iso)) };
  }, [lang, setLang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

/** The name to show first in the current language, and the other one (if any). */
export function localName(lang: Lang, name: string, nameEn: string | null): [string, string | null] {
  if (lang === 'en' && nameEn) return [nameEn, nameEn === name ? null : name];
  return [name, nameEn && nameEn !== name ? nameEn : null];
}
