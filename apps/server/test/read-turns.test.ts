import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

// A read's whole work runs in its turn of the reads (docs/search.md#how-it-is-served-a-read-model-in-every-process):
// the search, the page's details and its answer — also when the details had to be read from the
// database first (an asynchronous read: the rest of its work runs in a later turn).

describe.each(targets)('the turns of the reads on $name', (target) => {
  const s = useServer(target);
  const seen: { what: string; inTurn: boolean }[] = [];
  let restore: (() => void) | undefined;
  beforeAll(async () => {
    const names = ['Turnstile Alpha', 'Turnstile Beta', 'Turnstile Gamma'];
    const r = await s.call('POST', '/api/webhook/projects', {
      body: { projects: names.map((name) => project({ name, description: `The ${name} project.` })) },
    });
    expect(r.status).toBe(200);
    // look at every search of the index and every read of the detail cache: in a turn or not
    const model = s.readModel;
    const index = model.index;
    const find = index.findProjects.bind(index);
    index.findProjects = (q) => {
      seen.push({ what: 'search', inTurn: model.inReadTurn });
      return find(q);
    };
    const get = model.details.get.bind(model.details);
    model.details.get = (id) => {
      seen.push({ what: 'details', inTurn: model.inReadTurn });
      return get(id);
    };
    restore = () => {
      index.findProjects = find;
      model.details.get = get;
    };
  });
  afterAll(() => restore?.());

  it('searches, reads the details and answers in turns, after a detail-cache miss too', async () => {
    for (const fresh of [true, false]) {
      // a fresh cache: the page's details are read from the database between two turns
      if (fresh) s.readModel.details.clear();
      seen.length = 0;
      // (two addresses: an answer asked again is the kept one, response-cache.ts)
      const r = await s.call('GET', `/api/projects?q=turnstile&limit=2${fresh ? '' : '&sort=relevance'}`, {
        key: false,
      });
      expect(r.status).toBe(200);
      expect(r.json.projects.map((p: { name: string }) => p.name)).toHaveLength(2);
      expect(r.json.total).toBe(3);
      expect(seen.filter((x) => x.what === 'search')).toHaveLength(1);
      // looked up in the first turn, and (after a miss) again in the later one
      expect(seen.filter((x) => x.what === 'details').length).toBe(fresh ? 4 : 2);
      expect(seen.filter((x) => !x.inTurn)).toEqual([]);
    }
  });

  it('reads a project by slug in a turn, from the cache or after reading it', async () => {
    const list = await s.call('GET', '/api/projects?q=turnstile&limit=3', { key: false });
    for (const fresh of [true, false]) {
      const slug = list.json.projects[fresh ? 0 : 1].slug;
      if (fresh) s.readModel.details.clear();
      seen.length = 0;
      const r = await s.call('GET', `/api/projects/${slug}`, { key: false });
      expect(r.status).toBe(200);
      expect(r.json.data.slug).toBe(slug);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((x) => !x.inTurn)).toEqual([]);
    }
  });
});
