import { describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

/**
 * The read model remembers, per project, the newest change it applied, so that the
 * follower skips the changes of its own writes when the feed brings them. It must forget them
 * once the feed has passed them, not keep every project written since the process started.
 */
describe.each(targets)('the read model’s applied versions on $name', (target) => {
  const s = useServer(target, {}, 120_000);

  const remembered = async () => {
    const r = await s.call('GET', '/metrics');
    expect(r.status, r.text).toBe(200);
    const line = r.text.split('\n').find((l) => l.startsWith('read_model_versions '));
    return Number(line?.split(' ')[1]);
  };

  it('forgets the projects written once the change feed has passed their changes', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await s.call('POST', '/api/webhook/projects', {
        body: { projects: Array.from({ length: 100 }, () => project()) },
      });
      expect(r.status, r.text).toBe(200);
    }
    // the follower reads the feed at once on its notification, and at least every second
    const deadline = Date.now() + 10_000;
    let n = await remembered();
    while (n > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      n = await remembered();
    }
    expect(n).toBe(0);
  });
});
