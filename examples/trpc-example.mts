import { readFileSync } from 'node:fs';
import { createDirectoryTrpcClient } from '../packages/sdk/src/index.ts'; // or '@directory/sdk'

const trpc = createDirectoryTrpcClient({
  baseUrl: process.env.DIRECTORY_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.WEBHOOK_API_KEY ?? readFileSync('data/api-key', 'utf8').trim(),
});

// Queries are reads, mutations are writes; inputs and outputs are the REST ones.
const { tasks, total } = await trpc.tasks.list.query({ status: 'PENDING', limit: 5 });
console.log(
  total,
  tasks.map((t) => t.sourceUrl),
);
const checked = await trpc.tasks.checkDuplicates.mutate({ urls: ['https://example.org/some-ai-project'] });
console.log(checked.results[0]?.reason);
