import type { Command } from '../args.ts';
import { shortTime } from '../format.ts';
import { onProject } from './by-slug.ts';

export const getProject: Command = {
  name: 'get',
  summary: 'Show one project by slug',
  synopsis: 'get <slug>',
  help: `
Exit 1 when no project has the slug. With --json, stdout is the service's reply
{ success, data }.

Example:
  directory get deepseek-v3 --json`,
  options: {},
  args: { min: 1, max: 1 },

  run: (ctx) =>
    onProject(ctx, ctx.client.projects.get, ({ data: p }) => {
      const fields: [string, string | null | undefined][] = [
        ['name', p.name],
        ['nameEn', p.nameEn],
        ['slug', p.slug],
        ['status', p.status],
        ['description', p.description],
        ['descriptionEn', p.descriptionEn],
        ['source', p.source],
        ['tags', p.tags.map((t) => (t.nameEn ? `${t.name} (${t.nameEn})` : t.name)).join(', ')],
        ['created', shortTime(p.createdAt)],
        ['updated', shortTime(p.updatedAt)],
        ['id', p.id],
      ];
      for (const [label, value] of fields) {
        if (value) ctx.print(`${`${label}:`.padEnd(15)}${value}`);
      }
      ctx.print('links:');
      for (const l of p.links) ctx.print(`  ${l.type.padEnd(9)} ${l.url}${l.title ? `  ${l.title}` : ''}`);
      // The markdown as written, indented under its label.
      for (const [label, text] of [
        ['content', p.content],
        ['contentEn', p.contentEn],
      ] as const) {
        if (!text) continue;
        ctx.print(`${label}:`);
        for (const line of text.split('\n')) ctx.print(line ? `  ${line}` : '');
      }
    }),
};
