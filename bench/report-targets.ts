import { itemsOf } from './model.ts';
import { fmtInt, fmtMs, fmtRatio, GIB } from './report-format.ts';
import type { Report, SizeResult } from './report-types.ts';
import type { Measurement } from './scenarios.ts';

/* The targets a benchmark run is judged by, and how each figure scales from the smallest size. */

export function statusText(m: Measurement): string {
  const codes = Object.entries(m.status)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${code}:${count}`);
  if (m.errors > 0) codes.push(`no reply:${m.errors}`);
  return codes.length === 0 ? '0' : codes.join(' ');
}

export const baselineOf = (size: SizeResult) => size.measurements.find((m) => m.target === 'baseline');

export const slugOf = (size: SizeResult) => size.measurements.find((m) => m.key === 'slug');

export interface Scaling {
  key: string;
  label: string;
  /** Each figure's factor for the worse: req/s small÷large, latencies large÷small. */
  reqPerSec: number;
  p50: number;
  p99: number;
  worst: number;
  small: Measurement;
  large: Measurement;
}

/** The size the targets are judged at: 100,000 projects, else the largest measured. */
export const TARGET_SIZE = 100_000;
export function targetSize(report: Report): SizeResult | undefined {
  return report.sizes.find((s) => s.projects === TARGET_SIZE) ?? report.sizes[report.sizes.length - 1];
}

/** Each figure from the smallest size to the target size, for the scenarios measured at both. */
export function scaling(report: Report, large = targetSize(report)): Scaling[] {
  const small = report.sizes[0];
  if (!small || !large || small === large) return [];
  return small.measurements.flatMap((s) => {
    const l = large.measurements.find((m) => m.key === s.key);
    if (!l) return [];
    const reqPerSec = s.reqPerSec / l.reqPerSec;
    const p50 = l.p50 / s.p50;
    const p99 = l.p99 / s.p99;
    return [
      {
        key: s.key,
        label: s.label,
        reqPerSec,
        p50,
        p99,
        worst: Math.max(reqPerSec, p50, p99),
        small: s,
        large: l,
      },
    ];
  });
}

export interface Target {
  name: string;
  met: boolean | undefined;
  detail: string;
}

const sizeName = (size: SizeResult) => fmtInt(size.projects);

/**
 * The read model's targets, judged at 100,000 projects (the other sizes shown beside), then the
 * earlier targets it does not replace.
 */
export function targets(report: Report): Target[] {
  const list: Target[] = [];
  const main = targetSize(report);
  if (!main) return list;
  const measured = (size: SizeResult, key: string) => size.measurements.find((m) => m.key === key);
  const at = `at ${sizeName(main)}`;
  /** A figure at every size, the target size's first. */
  const each = (figure: (size: SizeResult) => string | undefined) =>
    [main, ...report.sizes.filter((s) => s !== main)]
      .map((size) => {
        const f = figure(size);
        return f === undefined ? undefined : `${sizeName(size)}: ${f}`;
      })
      .filter((x) => x !== undefined)
      .join(', ');
  // the read path's targets divide by GET by slug over the warm working set of 5,000 slugs
  // (slug-unkeyed), so that they measure the request path and not PostgreSQL; when that was not
  // measured, by the cold GET by slug, and the target's name says which
  const warm = main.measurements.some((m) => m.key === 'slug-unkeyed');
  const ratioToSlug = (size: SizeResult, key: string) => {
    const m = measured(size, key);
    const slug = warm ? measured(size, 'slug-unkeyed') : slugOf(size);
    return m && slug ? m.reqPerSec / slug.reqPerSec : undefined;
  };
  const bySlug = warm ? 'GET by slug (warm 5,000 slugs)' : 'GET by slug (random slugs)';

  const ratioTargets: [string, string, number][] = [
    ['search-zh', 'search by a common Chinese word (varied)', 0.5],
    ['search-en', 'search by a common English word (varied)', 0.5],
    ['search-two', 'search by two common words', 0.5],
    ['search-prefix', 'search by a two-letter prefix', 0.5],
    ['search-typo', 'search by a word with a typo', 0.5],
    ['search-facets', 'search with all three facets', 0.3],
    ['search-list', 'list page (no q)', 0.8],
    ['search-tags', 'tags list', 0.8],
  ];
  for (const [key, what, min] of ratioTargets) {
    const ratio = ratioToSlug(main, key);
    list.push({
      name: `${what} ≥ ${min} × ${bySlug}`,
      met: ratio === undefined ? undefined : ratio >= min,
      detail: each((size) => {
        const r = ratioToSlug(size, key);
        return r === undefined ? undefined : r.toFixed(2);
      }),
    });
  }

  // related projects against GET by slug over the same 5,000 warm slugs (slug-unkeyed)
  const relatedRatio = (size: SizeResult) => {
    const [r, slug] = [measured(size, 'related'), measured(size, 'slug-unkeyed')];
    return r && slug ? r.reqPerSec / slug.reqPerSec : undefined;
  };
  const related = relatedRatio(main);
  list.push({
    name: 'related projects ≥ 0.5 × GET by slug (same 5,000 slugs)',
    met: related === undefined ? undefined : related >= 0.5,
    detail: each((size) => relatedRatio(size)?.toFixed(2)),
  });

  const failing = main.measurements.filter((m) => m.non2xx + m.errors > 0);
  list.push({
    name: `no non-2xx ${at}`,
    met: main.measurements.length === 0 ? undefined : failing.length === 0,
    detail:
      failing.length === 0
        ? `${main.measurements.length} scenarios`
        : failing.map((m) => `${m.key} ${statusText(m)}`).join(', '),
  });

  const searches = main.measurements.filter((m) => m.key.startsWith('search-') && m.label.includes('q='));
  const at16 = searches.filter((m) => m.connections === 16);
  list.push({
    name: 'p99 of every search ≤ 25 ms at 16 connections',
    met: at16.length === 0 ? undefined : at16.every((m) => m.p99 <= 25),
    detail:
      at16.length === 0
        ? 'run with --connections 16'
        : `worst ${fmtMs(Math.max(...at16.map((m) => m.p99)))} ms`,
  });
  const slow = searches.filter((m) => m.p99 > 50 || m.connections < 64);
  list.push({
    name: 'p99 of every search ≤ 50 ms at 64 connections',
    met: searches.length === 0 ? undefined : slow.length === 0,
    detail: each((size) => {
      const ms = size.measurements.filter((m) => m.key.startsWith('search-') && m.label.includes('q='));
      return ms.length === 0 ? undefined : `worst ${fmtMs(Math.max(...ms.map((m) => m.p99)))} ms`;
    }),
  });

  const slugToBaseline = (size: SizeResult) => {
    const m = slugOf(size);
    const baseline = baselineOf(size);
    return m && baseline ? m.reqPerSec / baseline.reqPerSec : undefined;
  };
  const slugRatio = slugToBaseline(main);
  list.push({
    name: 'GET by slug ≥ 1.0 × the raw baseline',
    met: slugRatio === undefined ? undefined : slugRatio >= 1,
    detail: each((size) => {
      const r = slugToBaseline(size);
      return r === undefined ? undefined : `${r.toFixed(2)}×`;
    }),
  });

  const scaled = scaling(report).filter((s) => s.key !== 'baseline-slug');
  const worse = scaled.filter((s) => s.worst > 1.5);
  const first = report.sizes[0]!;
  list.push({
    name: `every figure within 1.5× from ${sizeName(first)} to ${sizeName(main)} projects`,
    met: scaled.length === 0 ? undefined : worse.length === 0,
    detail:
      scaled.length === 0
        ? 'needs two sizes'
        : worse.length === 0
          ? `worst ${fmtRatio(Math.max(...scaled.map((s) => s.worst)))}`
          : `worse: ${worse.map((s) => `${s.key} ${fmtRatio(s.worst)}`).join(', ')}`,
  });

  for (const [projects, max] of [
    [100_000, 10],
    [1_000_000, 60],
  ] as const) {
    const size = report.sizes.find((s) => s.projects === projects);
    const seconds = size?.model.buildSeconds ?? size?.model.readySeconds;
    list.push({
      name: `model build ≤ ${max} s at ${fmtInt(projects)} projects`,
      met: seconds === undefined ? undefined : seconds <= max,
      detail: each((s) =>
        s.model.buildSeconds === undefined
          ? `ready after ${s.model.readySeconds.toFixed(1)} s`
          : `${s.model.buildSeconds.toFixed(1)} s`,
      ),
    });
  }

  const million = report.sizes.find((s) => s.projects === 1_000_000);
  const peakOf = (s: SizeResult) => Math.max(s.model.ready?.peak ?? 0, s.model.end?.peak ?? 0) || undefined;
  const peak = million && peakOf(million);
  list.push({
    name: 'server resident memory ≤ 2.5 GB at 1,000,000 projects (peak, VmHWM)',
    met: peak === undefined ? undefined : peak <= 2.5 * GIB,
    detail: each((s) => {
      const p = peakOf(s);
      return p === undefined ? undefined : `${(p / GIB).toFixed(2)} GiB`;
    }),
  });

  const upserts = report.upserts;
  const upsertRatio = upserts ? itemsOf(upserts.after) / itemsOf(upserts.before) : undefined;
  list.push({
    name: 'upsert throughput with the model ≥ 90% of before',
    met: upsertRatio === undefined ? undefined : upsertRatio >= 0.9,
    detail: upserts
      ? `${Math.round((upsertRatio ?? 0) * 100)}% (${fmtInt(itemsOf(upserts.after))} vs ${fmtInt(itemsOf(upserts.before))} projects/s)`
      : 'not measured',
  });

  const fresh = report.sizes.filter((s) => s.freshness);
  list.push({
    name: 'write-to-searchable on another process p99 ≤ 100 ms',
    met: fresh.length === 0 ? undefined : fresh.every((s) => s.freshness!.p99 <= 100),
    detail: each((s) => (s.freshness ? `${fmtMs(s.freshness.p99)} ms` : undefined)),
  });

  // Earlier targets that the read model's leave standing.
  const slugP99 = slugOf(main);
  list.push({
    name: 'GET by slug p99 < 20 ms at 64 connections',
    met: slugP99 ? slugP99.p99 < 20 && slugP99.connections === 64 : undefined,
    detail: each((size) => {
      const m = slugOf(size);
      return m ? `${fmtMs(m.p99)} ms` : undefined;
    }),
  });
  // A key's lookup and rate limit cost a read at most 5 %
  const keyedRatio = (size: SizeResult) => {
    const keyed = measured(size, 'slug-keyed');
    const unkeyed = measured(size, 'slug-unkeyed');
    return keyed && unkeyed ? keyed.reqPerSec / unkeyed.reqPerSec : undefined;
  };
  const mainKeyed = keyedRatio(main);
  list.push({
    name: 'GET by slug with a named key ≥ 95% of without',
    met: mainKeyed === undefined ? undefined : mainKeyed >= 0.95,
    detail: each((size) => {
      const r = keyedRatio(size);
      return r === undefined ? undefined : `${(100 * r).toFixed(1)}%`;
    }),
  });
  const upsert = measured(main, 'upsert');
  list.push({
    name: '≥ 3,000 projects/s batch upsert',
    met: upsert ? (upsert.itemsPerSec ?? 0) >= 3000 : undefined,
    detail: each((size) => {
      const m = measured(size, 'upsert');
      return m ? `${fmtInt(m.itemsPerSec ?? 0)}/s` : undefined;
    }),
  });
  return list;
}
