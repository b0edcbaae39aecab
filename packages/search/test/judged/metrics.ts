import { JUDGED, type JudgedQuery, type QueryKind } from './queries.ts';

/*
 * The measures of the judged set (docs/search.md#how-relevance-is-judged), as search engines are
 * judged: success@1 (a project meant is first), MRR@10 (1 / the rank of the first project meant in
 * the first ten) and nDCG@10 (graded: a project meant 2, one accepted 1).
 */

export interface Measures {
  queries: number;
  success1: number;
  mrr10: number;
  ndcg10: number;
}

export interface Judged {
  all: Measures;
  byKind: Record<QueryKind, Measures>;
  /** The queries whose first answer is not a project meant, with what came first. */
  misses: { q: string; kind: QueryKind; got: string[] }[];
}

function measure(j: JudgedQuery, got: string[]): { s1: number; rr: number; ndcg: number } {
  const grade = (name: string) => (j.first.includes(name) ? 2 : j.also?.includes(name) ? 1 : 0);
  const top = got.slice(0, 10);
  const rank = top.findIndex((n) => j.first.includes(n));
  let dcg = 0;
  top.forEach((n, i) => {
    dcg += (2 ** grade(n) - 1) / Math.log2(i + 2);
  });
  const ideal = [...j.first.map(() => 2), ...(j.also ?? []).map(() => 1)].slice(0, 10);
  let idcg = 0;
  ideal.forEach((g, i) => {
    idcg += (2 ** g - 1) / Math.log2(i + 2);
  });
  return { s1: rank === 0 ? 1 : 0, rr: rank < 0 ? 0 : 1 / (rank + 1), ndcg: idcg ? dcg / idcg : 0 };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Runs every judged query through `search` (the names of its first ten answers, in order). */
export async function judge(
  search: (q: string) => string[] | Promise<string[]>,
  queries: JudgedQuery[] = JUDGED,
): Promise<Judged> {
  const rows: { j: JudgedQuery; s1: number; rr: number; ndcg: number; got: string[] }[] = [];
  for (const j of queries) {
    const got = await search(j.q);
    rows.push({ j, got, ...measure(j, got) });
  }
  const summary = (rs: typeof rows): Measures => ({
    queries: rs.length,
    success1: mean(rs.map((r) => r.s1)),
    mrr10: mean(rs.map((r) => r.rr)),
    ndcg10: mean(rs.map((r) => r.ndcg)),
  });
  const byKind = {} as Record<QueryKind, Measures>;
  for (const kind of new Set(rows.map((r) => r.j.kind)))
    byKind[kind] = summary(rows.filter((r) => r.j.kind === kind));
  return {
    all: summary(rows),
    byKind,
    misses: rows.filter((r) => r.s1 === 0).map((r) => ({ q: r.j.q, kind: r.j.kind, got: r.got.slice(0, 3) })),
  };
}

/** A table of measures, one row per kind then all, as the bench and the test print it. */
export function judgedTable(results: Record<string, Judged>): string {
  const names = Object.keys(results);
  const kinds = Object.keys(results[names[0]!]!.byKind) as QueryKind[];
  const f = (m: Measures) => `${m.success1.toFixed(2)} / ${m.mrr10.toFixed(2)} / ${m.ndcg10.toFixed(2)}`;
  const lines = [
    `| queries (success@1 / MRR@10 / nDCG@10) | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
  ];
  for (const k of kinds)
    lines.push(
      `| ${k} (${results[names[0]!]!.byKind[k].queries}) | ${names.map((n) => f(results[n]!.byKind[k])).join(' | ')} |`,
    );
  lines.push(
    `| **all** (${results[names[0]!]!.all.queries}) | ${names.map((n) => `**${f(results[n]!.all)}**`).join(' | ')} |`,
  );
  return lines.join('\n');
}
