import { createDirectoryClient, DirectoryError } from '../packages/sdk/src/index.ts'; // or '@directory/sdk'

const client = createDirectoryClient({
  baseUrl: process.env.DIRECTORY_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.WEBHOOK_API_KEY, // sent as x-api-key
  // optional: fetch, retries (default 3), timeoutMs per attempt (default 30000)
});

const result = await client.projects.upsert({
  projects: [
    {
      name: '深度求索',
      nameEn: 'DeepSeek V3',
      description: 'An open mixture-of-experts language model.',
      tags: [{ name: '大模型', nameEn: 'LLM' }],
      links: [{ type: 'CODEHOST', url: 'https://github.com/deepseek-ai/DeepSeek-V3' }],
    },
  ],
});
console.log(result); // { success: true, processed: 1, created: 1, updated: 0, failed: 0, errors: [] }

const { data } = await client.projects.get({ slug: 'deepseek-v3' });
console.log(
  data.name,
  data.tags.map((t) => t.slug),
);

// Queue work, then claim the oldest PENDING task (null when there is none).
await client.tasks.create({ tasks: [{ sourceUrl: 'https://example.org/some-ai-project' }] });
const task = await client.tasks.take();
if (task) {
  await client.tasks.complete({
    id: task.id,
    explorationData: {
      name: 'Some AI project',
      description: 'Found by exploring the task source.',
      tags: [{ name: 'agents' }],
      links: [{ type: 'WEBSITE', url: task.sourceUrl }],
    },
  });
}

// Every failure is a DirectoryError: HTTP status (0 = no response), error type, details.
try {
  await client.projects.get({ slug: 'no-such-project' });
} catch (err) {
  if (!(err instanceof DirectoryError)) throw err;
  console.log(err.status, err.error, err.details); // 404 'Not Found' [ 'Project with slug "no-such-project" not found' ]
}

// Any number of projects: batches of 100; an invalid item fails alone, the rest are still sent.
const many = Array.from({ length: 250 }, (_, i) => ({
  name: `Project ${i}`,
  description: 'A generated example project.',
  tags: [{ name: 'example' }],
  links: [{ type: 'WEBSITE' as const, url: `https://example.org/projects/${i}` }],
}));
const totals = await client.projects.upsertAll(many, {
  onBatch: (p) => console.log(`batch ${p.batch}: ${p.processed} done, ${p.failed} failed`),
});
console.log(totals.created, totals.errors); // errors: [{ index, name, error }], index in the whole input

for await (const page of client.tasks.listAll({ status: 'COMPLETED' })) {
  for (const t of page) console.log(t.id, t.sourceUrl, t.projectId);
}
