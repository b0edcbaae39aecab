import {
  type DuplicateProjectRow,
  findLinkDuplicates,
  findNameDuplicates,
  listDismissals,
} from '@directory/db';
import { decodeCursor, duplicatesCursor, encodeCursor, pageCursor } from '../domain/cursor.ts';
import { suggestInto } from '../domain/suggest-into.ts';
import { iso } from '../schemas/common.ts';
import { type Context, keyedProcedure, readDbOf } from '../trpc.ts';
import { FindDuplicatesInput, FindDuplicatesOutput, findDuplicatesMeta } from './find-duplicates.types.ts';

const DISMISSED_QUERY = { dismissed: true };

const shown = (p: DuplicateProjectRow) => ({
  id: p.id,
  slug: p.slug,
  name: p.name,
  nameEn: p.nameEn,
  description: p.description,
  descriptionEn: p.descriptionEn,
  links: p.links,
  updatedAt: iso(new Date(p.updatedAt)),
  revisions: p.revisions,
  locked: p.locked,
});

/** The dismissed pairs, newest first (`?dismissed=true`). */
async function dismissals(ctx: Context, input: FindDuplicatesInput) {
  const scope = { secret: ctx.apiKey, query: DISMISSED_QUERY };
  const after = input.cursor === undefined ? undefined : decodeCursor(pageCursor, input.cursor, scope);
  const [a = '', b = ''] = after ? after.id.split(' ') : [];
  const rows = await listDismissals(readDbOf(ctx), {
    after: after && { at: String(after.key), a, b },
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    success: true as const,
    groups: [],
    dismissals: page.map((r) => ({ projects: r.projects, at: iso(r.at), actor: r.actor })),
    nextCursor:
      rows.length > input.limit && last
        ? encodeCursor(pageCursor, { key: last.at_key, id: `${last.project_a} ${last.project_b}` }, scope)
        : null,
  };
}

export const findDuplicates = keyedProcedure
  .meta(findDuplicatesMeta)
  .input(FindDuplicatesInput)
  .output(FindDuplicatesOutput)
  .query(async ({ ctx, input }) => {
    if (input.dismissed) return dismissals(ctx, input);
    const after = input.cursor === undefined ? undefined : decodeCursor(duplicatesCursor, input.cursor);
    // One more than a page: whether there is a next one.
    const wanted = input.limit + 1;
    const groups =
      after?.reason === 'name' ? [] : await findLinkDuplicates(readDbOf(ctx), after?.key, wanted);
    if (groups.length < wanted) {
      const afterName = after?.reason === 'name' ? after.key : undefined;
      groups.push(...(await findNameDuplicates(readDbOf(ctx), afterName, wanted - groups.length)));
    }
    const page = groups.slice(0, input.limit);
    const last = page.at(-1);
    return {
      success: true as const,
      groups: page.map((g) => ({
        reason: g.reason,
        key: g.key,
        projects: g.projects.map(shown),
        suggestedInto: suggestInto(g.projects) ?? g.projects[0]!.slug,
      })),
      nextCursor:
        groups.length > input.limit && last
          ? encodeCursor(duplicatesCursor, { reason: last.reason, key: last.key })
          : null,
    };
  });
