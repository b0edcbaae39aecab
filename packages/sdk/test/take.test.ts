import { startServer, type TestServer, targets, uniqueUrl } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryClient, type DirectoryClient } from '../src/index.ts';

describe.each(targets)('tasks.take on $name', (target) => {
  let s: TestServer;
  let client: DirectoryClient;
  beforeAll(async () => {
    s = await startServer(target);
    client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Queues `n` tasks (each its own request, so queue order is creation order); returns their ids in order. */
  async function queue(n: number): Promise<string[]> {
    const urls: string[] = [];
    for (let i = 0; i < n; i++) {
      urls.push(uniqueUrl('take'));
      await client.tasks.create({ tasks: [{ sourceUrl: urls[i]! }] });
    }
    const ids = new Map<string, string>();
    for await (const page of client.tasks.listAll({ status: 'PENDING' })) {
      for (const t of page) ids.set(t.sourceUrl, t.id);
    }
    return urls.map((u) => ids.get(u)!);
  }

  /** Takes until the queue is empty, so each test starts from an empty queue. */
  async function drain() {
    while (await client.tasks.take()) {}
  }

  it('claims the oldest PENDING task with a lease; null when none is left', async () => {
    await drain();
    const ids = await queue(3);
    const first = await client.tasks.take();
    expect(first).toMatchObject({ id: ids[0], status: 'IN_PROGRESS' });
    expect(first!.startedAt).not.toBeNull();
    expect(first!.leaseToken).toEqual(expect.any(String));
    expect((await client.tasks.take({ leaseSeconds: 60, worker: 'sdk-test' }))?.id).toBe(ids[1]);
    expect((await client.tasks.take())?.id).toBe(ids[2]);
    expect(await client.tasks.take()).toBeNull();
  });

  it('gives concurrent takers different tasks', async () => {
    await drain();
    const ids = await queue(6);
    const taken = await Promise.all(Array.from({ length: 8 }, () => client.tasks.take()));
    const got = taken.filter((t) => t !== null).map((t) => t.id);
    expect(got.sort()).toEqual([...ids].sort());
    expect(taken.filter((t) => t === null)).toHaveLength(2);
    for (const id of ids) expect((await client.tasks.get({ id })).task.status).toBe('IN_PROGRESS');
  });

  it('two concurrent takes get the two oldest tasks, one each', async () => {
    await drain();
    const ids = await queue(3);
    const [a, b] = await Promise.all([client.tasks.take(), client.tasks.take()]);
    expect(a!.id).not.toBe(b!.id);
    expect([a!.id, b!.id].sort()).toEqual(ids.slice(0, 2).sort());
  });

  it('gives a token that heartbeat, release and complete accept, and waits with wait', async () => {
    await drain();
    const [id] = await queue(1);
    const t = (await client.tasks.take({ leaseSeconds: 30 }))!;
    const beat = await client.tasks.heartbeat({ id: t.id, leaseToken: t.leaseToken, leaseSeconds: 120 });
    expect(Date.parse(beat.task.leaseExpiresAt!)).toBeGreaterThan(Date.now() + 100_000);
    await client.tasks.release({ id: t.id, leaseToken: t.leaseToken, errorMessage: 'later' });
    const again = (await client.tasks.take())!;
    expect(again).toMatchObject({ id, attempt: 2, errorMessage: 'later' });
    await expect(client.tasks.heartbeat({ id: t.id, leaseToken: t.leaseToken })).rejects.toMatchObject({
      status: 409,
      error: 'Conflict',
    });
    const waiting = client.tasks.take({ wait: 5 });
    setTimeout(() => void client.tasks.create({ tasks: [{ sourceUrl: uniqueUrl('take') }] }), 200);
    expect(await waiting).toMatchObject({ status: 'IN_PROGRESS', attempt: 1 });
    const stats = await client.tasks.stats();
    expect(stats.counts.IN_PROGRESS).toBeGreaterThanOrEqual(2);
  });
});
