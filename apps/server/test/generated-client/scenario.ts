// A third-party client's view of the API: `schema.d.ts` is generated from the OpenAPI document by
// openapi-typescript next to a copy of this file (generated-client.test.ts), which must compile
// with `strict` and without a cast, then run against a server (BASE_URL, API_KEY) through
// openapi-fetch. Prints one `ok <METHOD> <path>` line per operation it exercised.
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const baseUrl = process.env.BASE_URL;
const apiKey = process.env.API_KEY;
if (!baseUrl || !apiKey) throw new Error('BASE_URL and API_KEY must be set');

const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } });
const run = Date.now().toString(36);

function ok(operation: string, condition: boolean, detail: unknown): void {
  if (!condition) throw new Error(`${operation}: unexpected reply ${JSON.stringify(detail)}`);
  console.log(`ok ${operation}`);
}

const codehostUrl = `https://github.com/QwenLM/Qwen-${run}`;
const projectInput = {
  name: `通义千问 ${run}`,
  nameEn: `Qwen ${run}`,
  description: '阿里云通义团队推出的大语言模型系列。',
  descriptionEn: "Alibaba Cloud's Qwen family of large language models.",
  status: 'ACTIVE' as const,
  tags: [{ name: '大语言模型', nameEn: 'LLM' }],
  links: [
    { type: 'CODEHOST' as const, url: codehostUrl, title: 'GitHub' },
    { type: 'WEBSITE' as const, url: `https://tongyi.aliyun.com/${run}`, title: '通义' },
  ],
};

// 1. create a project
const upserted = await client.POST('/api/webhook/projects', { body: { projects: [projectInput] } });
ok('POST /api/webhook/projects', upserted.data?.created === 1 && upserted.data.failed === 0, upserted.error);

// 2. read it by slug
const slug = `qwen-${run}`;
const read = await client.GET('/api/projects/{slug}', { params: { path: { slug } } });
const project = read.data?.data;
ok(
  'GET /api/projects/{slug}',
  project?.name === projectInput.name &&
    project.links[0]?.url === codehostUrl &&
    project.tags[0]?.slug === 'llm',
  read.error,
);

// 10. check it as a duplicate project
const projectCheck = await client.POST('/api/webhook/check-duplicates', {
  body: { projects: [{ codehostUrl }, { slug: `nothing-${run}` }] },
});
const [found, notFound] = projectCheck.data?.results ?? [];
ok(
  'POST /api/webhook/check-duplicates',
  found?.matchType === 'CODEHOST_URL' && found.projectId === project?.id && notFound?.exists === false,
  projectCheck.error,
);

// 4. create tasks, one of them an IRI
const taskUrls = [`https://zh.wikipedia.org/wiki/通义千问/${run}`, `https://huggingface.co/Qwen/${run}`];
const created = await client.POST('/api/discovery/tasks', {
  body: { tasks: taskUrls.map((sourceUrl) => ({ sourceUrl, sourceType: 'web' })) },
});
ok('POST /api/discovery/tasks', created.data?.created === 2 && created.data.total === 2, created.error);

// 5. list pending tasks, and find ours
const listed = await client.GET('/api/discovery/tasks', {
  params: { query: { status: 'PENDING', limit: 100, offset: 0 } },
});
const task = listed.data?.tasks.find((t) => t.sourceUrl === taskUrls[0]);
ok('GET /api/discovery/tasks', task !== undefined && task.status === 'PENDING', listed.error);
if (!task) throw new Error('no task');

// 6. read the task
const got = await client.GET('/api/discovery/tasks/{id}', { params: { path: { id: task.id } } });
ok('GET /api/discovery/tasks/{id}', got.data?.task.explorationData === null, got.error);

// 7. start it
const started = await client.PATCH('/api/discovery/tasks/{id}', {
  params: { path: { id: task.id } },
  body: { status: 'IN_PROGRESS', explorationSummary: '通义千问维基页面 / The Qwen wiki page' },
});
ok('PATCH /api/discovery/tasks/{id}', started.data?.task.startedAt !== null, started.error);

// 8. complete it with the project: an update of the one created above
const completed = await client.POST('/api/discovery/tasks/{id}/complete', {
  params: { path: { id: task.id } },
  body: { explorationData: projectInput },
});
ok(
  'POST /api/discovery/tasks/{id}/complete',
  completed.data?.action === 'updated' &&
    completed.data.projectId === project?.id &&
    completed.data.duration >= 0,
  completed.error,
);

// 9. the task urls are now duplicates
const urlCheck = await client.POST('/api/discovery/check-duplicates', {
  body: { urls: [...taskUrls, `https://example.org/new/${run}`] },
});
const reasons = urlCheck.data?.results.map((r) => r.reason);
ok(
  'POST /api/discovery/check-duplicates',
  JSON.stringify(reasons) === JSON.stringify(['Task already completed', 'Task already pending', 'New URL']),
  urlCheck.error ?? reasons,
);

// 3. delete the project; then it is a 404 in the envelope
const deleted = await client.DELETE('/api/projects/{slug}', { params: { path: { slug } } });
ok('DELETE /api/projects/{slug}', deleted.data?.data.deleted.linksCount === 2, deleted.error);
const gone = await client.GET('/api/projects/{slug}', { params: { path: { slug } } });
if (gone.error?.error !== 'Not Found' || gone.response.status !== 404)
  throw new Error('the project is still there');
