import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, slugOf, startServer, type TestServer, targets, uniqueUrl } from './helpers.ts';

describe.each(targets)('duplicate checks on $name', (target) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(target);
  });
  afterAll(async () => {
    await s?.close();
  });

  const checkUrls = (body: unknown) => s.call('POST', '/api/discovery/check-duplicates', { body });
  const checkProjects = (projects: unknown) =>
    s.call('POST', '/api/webhook/check-duplicates', { body: { projects } });

  it('endpoint 9: a project link of any type counts, and existingProject is the oldest owner', async () => {
    const paper = uniqueUrl('paper');
    const first = project({ links: [{ type: 'PAPER', url: paper }] });
    const second = project({ links: [{ type: 'MODELHUB', url: paper }] });
    await s.call('POST', '/api/webhook/projects', { body: { projects: [first] } });
    await s.call('POST', '/api/webhook/projects', { body: { projects: [second] } });
    const r = await checkUrls({ urls: [paper, paper], sourceType: 'rss' });
    expect(r.json.results).toEqual([
      {
        url: paper,
        shouldCreate: false,
        reason: 'Project already exists',
        existingProject: { id: expect.any(String), name: first.name, slug: slugOf(first) },
      },
      expect.objectContaining({ reason: 'Project already exists' }),
    ]);
    expect(r.json.stats).toEqual({ total: 2, shouldCreate: 0, duplicate: 2 });
  });

  it('endpoint 9: a task decides before a project, and existingTask has exactly its five fields', async () => {
    const p = project();
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const url = p.links[1]!.url;
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    const r = await checkUrls({ urls: [url] });
    const result = r.json.results[0];
    expect(result.reason).toBe('Task already pending');
    expect(Object.keys(result.existingTask).sort()).toEqual([
      'createdAt',
      'id',
      'projectId',
      'sourceUrl',
      'status',
    ]);
    expect(result).not.toHaveProperty('existingProject');
  });

  it('endpoint 9: validation of urls', async () => {
    for (const body of [{}, { urls: [] }, { urls: [''] }, { urls: 'https://x.org' }, { urls: [1] }]) {
      const r = await checkUrls(body);
      expect(r.status).toBe(400);
      expect(r.json.details[0]).toMatch(/^urls/);
    }
  });

  it('endpoint 10: repeats only the fields sent, matches exactly, and counts the breakdown', async () => {
    const p = project();
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const r = await checkProjects([
      { slug: slugOf(p), websiteUrl: p.links[1]!.url },
      { codehostUrl: p.links[1]!.url }, // a WEBSITE url asked as CODEHOST: no match
      { websiteUrl: `${p.links[1]!.url}#x` },
    ]);
    expect(r.json.results).toEqual([
      {
        slug: slugOf(p),
        websiteUrl: p.links[1]!.url,
        exists: true,
        matchType: 'WEBSITE_URL',
        projectId: expect.any(String),
        projectName: p.name,
      },
      { codehostUrl: p.links[1]!.url, exists: false, matchType: 'NONE' },
      { websiteUrl: `${p.links[1]!.url}#x`, exists: false, matchType: 'NONE' },
    ]);
    expect(r.json.stats).toEqual({
      total: 3,
      exists: 1,
      new: 2,
      breakdown: { codehostUrl: 0, modelhubUrl: 0, websiteUrl: 1, slug: 0 },
    });
  });

  it('endpoint 10: each item needs at least one field; 1 to 100 items', async () => {
    for (const projects of [[{}], [], Array.from({ length: 101 }, () => ({ slug: 'x' })), [{ slug: '' }]]) {
      const r = await checkProjects(projects);
      expect(r.status).toBe(400);
      expect(r.json.details[0]).toMatch(/^projects/);
    }
  });

  it('endpoint 10 answers 100 items in one request', async () => {
    const r = await checkProjects(
      Array.from({ length: 100 }, (_, i) => ({ slug: `none-${i}`, codehostUrl: uniqueUrl() })),
    );
    expect(r.status).toBe(200);
    expect(r.json.stats.new).toBe(100);
  });
});
