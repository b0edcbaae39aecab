// Throwaway (not committed): the real app plus stand-ins for GET /api/projects and /api/tags.
import { readFileSync } from 'node:fs';
import express from 'express';
import { startServer } from './helpers.ts';

const s = await startServer({ postgres: false });
const sample = JSON.parse(readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'));
await s.call('POST', '/api/webhook/projects', { body: { projects: sample } });
const projects: any[] = [];
for (const p of sample) {
  const slug = (p.nameEn ?? p.name).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const r = await s.call('GET', `/api/projects/${slug}`, { key: false });
  if (r.status === 200) projects.push(r.json.data);
}
const app = express();
app.get('/api/projects', (req, res) => {
  const q = String(req.query.q ?? '').toLowerCase();
  const tags = ([] as string[]).concat((req.query.tag as any) ?? []);
  let list = projects.filter((p) => !q || JSON.stringify(p).toLowerCase().includes(q) || (q === 'tyqw' && p.name === '通义千问') || (q === 'tongyi' && p.name === '通义千问'));
  const byTag = list.filter((p) => tags.every((t) => p.tags.some((x: any) => x.slug === t)));
  const counts = new Map<string, any>();
  for (const p of list) for (const t of p.tags) counts.set(t.slug, { ...t, count: (counts.get(t.slug)?.count ?? 0) + 1 });
  const start = Number(req.query.cursor ?? 0);
  res.json({ success: true, projects: byTag.slice(start, start + 20).map(({ content, contentEn, ...p }) => p), total: byTag.length, totalExact: true, hasMore: start + 20 < byTag.length, nextCursor: start + 20 < byTag.length ? String(start + 20) : null,
    facets: { tags: [...counts.values()].sort((a, b) => b.count - a.count).slice(0, 50), status: [{ value: 'ACTIVE', count: byTag.length }], linkTypes: ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'].map((value) => ({ value, count: byTag.filter((p) => p.links.some((l: any) => l.type === value)).length })) } });
});
app.get('/api/tags', (_req, res) => {
  const counts = new Map<string, any>();
  for (const p of projects) for (const t of p.tags) counts.set(t.slug, { ...t, projectCount: (counts.get(t.slug)?.projectCount ?? 0) + 1 });
  res.json({ success: true, tags: [...counts.values()].sort((a, b) => b.projectCount - a.projectCount), hasMore: false, nextCursor: null });
});
app.use((req, res) => {
  fetch(s.baseUrl + req.originalUrl, { method: req.method, headers: req.headers as any }).then(async (r) => {
    res.status(r.status);
    r.headers.forEach((v, k) => { if (k !== 'content-encoding' && k !== 'content-length' && k !== 'transfer-encoding') res.setHeader(k, v); });
    res.send(Buffer.from(await r.arrayBuffer()));
  });
});
app.listen(4501, '127.0.0.1', () => console.log('stub on 4501, key', s.key, projects.length));
