import { readFileSync } from 'node:fs';
import { createDirectoryClient, DirectoryError } from '../packages/sdk/src/index.ts'; // or '@directory/sdk'

const client = createDirectoryClient({
  baseUrl: process.env.DIRECTORY_URL ?? 'http://127.0.0.1:3000',
  // Sent as x-api-key: WEBHOOK_API_KEY, else the key a local server keeps in data/api-key.
  apiKey: process.env.WEBHOOK_API_KEY ?? readFileSync('data/api-key', 'utf8').trim(),
  // optional: fetch, retries (default 3), timeoutMs per attempt (default 30000)
});

// The example's own project (example-org URLs), so that it changes nothing already there.
const result = await client.projects.upsert({
  projects: [
    {
      name: '示例检索工具',
      nameEn: 'Example Retriever',
      description: 'A retrieval library made up for the SDK example.',
      tags: [{ name: '示例', nameEn: 'Example' }],
      links: [{ type: 'CODEHOST', url: 'https://github.com/example-org/retriever' }],
    },
  ],
});
console.log(result.created, result.updated, result.results); // 1 0 [ { index: 0, action: 'created', id: '…', slug: 'example-retriever' } ]

const { data } = await client.projects.get({ slug: 'example-retriever' });
console.log(
  data.name,
  data.tags.map((t) => t.slug),
); // 示例检索工具 [ 'example' ]

// Queue a task, start it and complete it with what was found. A worker would claim the oldest
// claimable task instead, with client.tasks.take() or client.runWorker() (docs/workers.md);
// this example works on its own task so that it never takes one of yours.
const sourceUrl = 'https://github.com/example-org/sdk-crawler';
await client.tasks.create({ tasks: [{ sourceUrl }] });
const [check] = (await client.tasks.checkDuplicates({ urls: [sourceUrl] })).results;
const id = check?.existingTask?.id;
if (id) {
  const { task } = await client.tasks.get({ id });
  if (task.status === 'PENDING') {
    await client.tasks.updateStatus({ id, status: 'IN_PROGRESS' });
    const done = await client.tasks.complete({
      id,
      explorationData: {
        name: 'Example SDK Crawler',
        description: 'Found by exploring the task source.',
        tags: [{ name: '示例', nameEn: 'Example' }],
        links: [{ type: 'CODEHOST', url: sourceUrl }],
      },
    });
    console.log(done.action, done.slug); // created example-sdk-crawler
  }
}

// Every failure is a DirectoryError: HTTP status (0 = no response), error type, details.
try {
  await client.projects.get({ slug: 'no-such-project' });
} catch (err) {
  if (!(err instanceof DirectoryError)) throw err;
  console.log(err.status, err.error, err.details); // 404 'Not Found' [ 'Project with slug "no-such-project" not found' ]
}

// Any number of projects: batches of 100; an invalid item fails alone, the rest are still sent.
const many = Array.from({ length: 150 }, (_, i) => ({
  name: `SDK Example ${i}`,
  description: 'A generated example project.',
  tags: [{ name: '示例', nameEn: 'Example' }],
  links: [{ type: 'WEBSITE' as const, url: `https://sdk-example.example.org/projects/${i}` }],
}));
const totals = await client.projects.upsertAll(many, {
  onBatch: (p) => console.log(`batch ${p.batch}: ${p.processed} done, ${p.failed} failed`),
});
console.log(totals.created, totals.errors); // errors: [{ index, name, error }], index in the whole input

for await (const page of client.tasks.listAll({ status: 'COMPLETED' })) {
  for (const t of page) console.log(t.id, t.sourceUrl, t.projectId);
}

// Clean up: the example's projects go; its task stays COMPLETED (with projectId null).
for (const slug of ['example-retriever', 'example-sdk-crawler', ...totals.written.map((w) => w.slug)])
  await client.projects.delete({ slug }).catch(() => undefined);
