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
