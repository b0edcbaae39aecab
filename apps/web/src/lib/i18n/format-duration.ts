import type { Lang } from './lang.ts';

/** A number of seconds in the largest whole unit: `3 min`, `3 分钟`. */
export function formatDuration(seconds: number, lang: Lang): string {
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
