import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { targets, useServer } from './helpers.ts';

/**
 * The alert rules and the Grafana dashboard in ops/ (docs/operating.md#alerts): every expression
 * parses as PromQL (Prometheus's own grammar, @prometheus-io/lezer-promql), and every metric it
 * names is one a running server exports — so a renamed metric breaks this test, not an alert.
 */

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** Prometheus's own series, not the server's. */
const PROMETHEUS_OWN = new Set(['up']);

/** The metric names an expression selects; throws on a syntax error, naming where. */
function metricNames(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) throw new Error(`PromQL syntax error at ${node.from} in: ${expr}`);
      // a selector's metric: the Identifier directly under a VectorSelector
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector')
        names.push(expr.slice(node.from, node.to));
    },
  });
  return names;
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string };
}

const rules = (parseYaml(read('ops/prometheus/alerts.yml')) as { groups: { name: string; rules: Rule[] }[] })
  .groups;
const dashboard = JSON.parse(read('ops/grafana/project-directory.json')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};
const expressions = [
  ...rules.flatMap((g) => g.rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr }))),
  ...dashboard.panels.flatMap((p) => p.targets.map((t) => ({ where: `panel "${p.title}"`, expr: t.expr }))),
];

describe('the ops files', () => {
  it('every alert has a name, a severity, a summary and a duration Prometheus reads', () => {
    expect(rules.flatMap((g) => g.rules).length).toBeGreaterThanOrEqual(8);
    for (const rule of rules.flatMap((g) => g.rules)) {
      expect(rule.alert).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(['critical', 'warning', 'info']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toEqual(expect.any(String));
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
    }
  });

  it('rejects what is not PromQL (the check can fail)', () => {
    expect(() => metricNames('sum(rate(http_requests_total[5m])')).toThrow(/syntax error/);
    expect(() => metricNames('db_primary_up ==')).toThrow(/syntax error/);
    expect(metricNames('max by (standby) (db_standby_lag_seconds) > 30')).toEqual(['db_standby_lag_seconds']);
  });

  it('every expression parses', () => {
    for (const { where, expr } of expressions) expect(() => metricNames(expr), where).not.toThrow();
  });
});

/** What `systemd-analyze verify` says of a unit file (empty: nothing to say), and its exit code. */
function verifyUnit(path: string): { status: number | null; said: string } {
  const r = spawnSync('systemd-analyze', ['verify', path], { encoding: 'utf8' });
  return { status: r.status, said: `${r.stdout}${r.stderr}`.trim() };
}

const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].some((p) => existsSync(p));

describe.runIf(SYSTEMD_ANALYZE)('the systemd unit', () => {
  it('passes systemd-analyze verify, which notices a wrong setting', () => {
    const unit = fileURLToPath(new URL('ops/systemd/project-directory.service', root));
    expect(verifyUnit(unit)).toEqual({ status: 0, said: '' });
    const dir = mkdtempSync(join(tmpdir(), 'directory-unit-'));
    try {
      const broken = join(dir, 'project-directory.service');
      writeFileSync(
        broken,
        read('ops/systemd/project-directory.service').replace('KillMode=mixed', 'KillMode=mixd'),
      );
      expect(verifyUnit(broken).said).toMatch(/kill mode/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(targets)('the ops files against a server on $name', (target) => {
  const s = useServer(target);

  it('name only metrics the server exports', async () => {
    // a request of each kind first, so the request series exist
    await s.call('GET', '/healthz', { key: false });
    const text = (await s.call('GET', '/metrics')).text;
    const exported = new Set(
      text
        .split('\n')
        .filter((l) => l.startsWith('# TYPE '))
        .flatMap((l) => {
          const [, , name = '', type] = l.split(' ');
          // a histogram's series are its _bucket, _sum and _count
          return type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
        }),
    );
    for (const { where, expr } of expressions)
      for (const name of metricNames(expr))
        if (!PROMETHEUS_OWN.has(name)) expect(exported.has(name), `${where}: ${name}`).toBe(true);
  });
});
