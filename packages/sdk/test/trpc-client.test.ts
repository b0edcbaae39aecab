import { project, startServer, type TestServer, targets, uniqueUrl } from '@directory/server/test/helpers';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppRouter,
  createDirectoryTrpcClient,
  type DirectoryTrpcClient,
  type ProjectInput,
} from '../src/index.ts';

describe.each(targets)('the tRPC client on $name', (target) => {
  let s: TestServer;
  let trpc: DirectoryTrpcClient;
  beforeAll(async () => {
    s = await startServer(target);
    trpc = createDirectoryTrpcClient({ baseUrl: s.baseUrl, apiKey: s.key });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('calls every procedure', async () => {
    const p = project() as ProjectInput & { nameEn: string };
    const slug = p.nameEn.toLowerCase().replace(/\s+/g, '-');
    expect(await trpc.projects.upsert.mutate({ projects: [p] })).toMatchObject({ success: true, created: 1 });
    expect((await trpc.projects.get.query({ slug })).data).toMatchObject({ name: p.name, slug });
    const dupes = await trpc.projects.checkDuplicates.mutate({ projects: [{ slug }] });
    expect(dupes.results[0]).toMatchObject({ exists: true, matchType: 'SLUG' });

    const sourceUrl = uniqueUrl('trpc');
    expect(await trpc.tasks.create.mutate({ tasks: [{ sourceUrl }] })).toMatchObject({ created: 1 });
    const listed = await trpc.tasks.list.query({ status: 'PENDING', limit: 100 });
    const task = listed.tasks.find((t) => t.sourceUrl === sourceUrl)!;
    expect(task).toBeDefined();
    expect((await trpc.tasks.get.query({ id: task.id })).task.status).toBe('PENDING');
    const checked = await trpc.tasks.checkDuplicates.mutate({ urls: [sourceUrl] });
    expect(checked.results[0]).toMatchObject({ shouldCreate: false, reason: 'Task already pending' });
    const started = await trpc.tasks.updateStatus.mutate({ id: task.id, status: 'IN_PROGRESS' });
    expect(started.task.status).toBe('IN_PROGRESS');
    const done = await trpc.tasks.complete.mutate({ id: task.id, explorationData: p });
    expect(done).toMatchObject({ success: true, taskId: task.id, action: 'updated' });

    const deleted = await trpc.projects.delete.mutate({ slug });
    expect(deleted.data.project.slug).toBe(slug);
  });

  it('fails an unauthorized call with the envelope in the error data', async () => {
    const anonymous = createDirectoryTrpcClient({ baseUrl: s.baseUrl });
    const err = await anonymous.tasks.list.query({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as TRPCClientError<AppRouter>).data).toMatchObject({
      httpStatus: 401,
      error: 'Unauthorized',
      details: ['Invalid or missing API Key'],
    });
    const wrong = createDirectoryTrpcClient({ baseUrl: s.baseUrl, apiKey: 'wrong' });
    await expect(
      wrong.projects.upsert.mutate({ projects: [project() as ProjectInput] }),
    ).rejects.toMatchObject({
      data: { httpStatus: 401 },
    });
    // reads of one record need no key
    await expect(anonymous.projects.get.query({ slug: 'nothing-here' })).rejects.toMatchObject({
      data: { httpStatus: 404, error: 'Not Found' },
    });
  });
});
