import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, uniqueUrl, useServer } from './helpers.ts';

describe.each(targets)('duplicate checks on $name', (target) => {
  const s = useServer(target);

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
        matchedUrl: paper,
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

  it('endpoint 10: repeats only the fields sent, matches by url key, and counts the breakdown', async () => {
    const p = project();
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const website = p.links[1]!.url;
    const other = website.replace('https://', 'http://www.').replace(/\/$/, '#x');
    const r = await checkProjects([
      { slug: slugOf(p), websiteUrl: website },
      { codehostUrl: website }, // a WEBSITE url asked as CODEHOST: no match
      { websiteUrl: other }, // another spelling of the same url key
      { websiteUrl: `${website}other` },
      { slug: slugOf(p) },
    ]);
    expect(r.json.results).toEqual([
      {
        slug: slugOf(p),
        websiteUrl: website,
        exists: true,
        matchType: 'WEBSITE_URL',
        projectId: expect.any(String),
        projectName: p.name,
        matchedUrl: website,
      },
      { codehostUrl: website, exists: false, matchType: 'NONE' },
      {
        websiteUrl: other,
        exists: true,
        matchType: 'WEBSITE_URL',
        projectId: r.json.results[0].projectId,
        projectName: p.name,
        matchedUrl: website,
      },
      { websiteUrl: `${website}other`, exists: false, matchType: 'NONE' },
      {
        slug: slugOf(p),
        exists: true,
        matchType: 'SLUG',
        projectId: r.json.results[0].projectId,
        projectName: p.name,
      },
    ]);
    expect(r.json.stats).toEqual({
      total: 5,
      exists: 3,
      new: 2,
      breakdown: { codehostUrl: 0, modelhubUrl: 0, websiteUrl: 2, slug: 1 },
    });
  });

  it('endpoint 9: other spellings of a task url or a link url match by key, with the stored spelling', async () => {
    const p = project({
      links: [
        {
          type: 'CODEHOST',
          url: `https://github.com/Key-${Date.now()}/Repo${Math.random().toString(36).slice(2)}`,
        },
      ],
    });
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const repo = p.links[0]!.url;
    const taskUrl = uniqueUrl('Task');
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: taskUrl }] } });
    const r = await checkUrls({
      urls: [
        `${repo.replace('https://github.com', 'http://www.GitHub.com').toLowerCase()}.git`,
        `${repo}/tree/main`,
        taskUrl.replace('https://', 'http://'),
        taskUrl.toLowerCase(), // example.org paths keep their case: another url
        'not a url at all',
      ],
    });
    expect(r.json.results.map((x: { reason: string }) => x.reason)).toEqual([
      'Project already exists',
      'Project already exists',
      'Task already pending',
      'New URL',
      'New URL',
    ]);
    expect(r.json.results[0].matchedUrl).toBe(repo);
    expect(r.json.results[1].matchedUrl).toBe(repo);
    expect(r.json.results[2].matchedUrl).toBe(taskUrl);
    expect(r.json.results[2].existingTask.sourceUrl).toBe(taskUrl);
    expect(r.json.results[3]).not.toHaveProperty('matchedUrl');
  });

  it('endpoint 4: a url whose key already has a task is skipped, also within one request', async () => {
    const url = uniqueUrl('Skip');
    const r = await s.call('POST', '/api/discovery/tasks', {
      body: {
        tasks: [
          { sourceUrl: url },
          { sourceUrl: `${url}/` },
          { sourceUrl: `${url}?utm_source=feed` },
          { sourceUrl: url.toLowerCase() },
        ],
      },
    });
    expect(r.json).toMatchObject({ created: 2, skipped: 2, total: 4 });
    const again = await s.call('POST', '/api/discovery/tasks', {
      body: { tasks: [{ sourceUrl: url.replace('https://', 'http://') }] },
    });
    expect(again.json).toMatchObject({ created: 0, skipped: 1, total: 1 });
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
