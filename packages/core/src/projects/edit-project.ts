import { findLatestRevision, findProjectDetailsByIds, findProjectIdBySlug } from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import { ifMatchAccepts } from '../domain/etag.ts';
import { createId } from '../domain/ids.ts';
import { urlKey } from '../domain/url-key.ts';
import { AppError } from '../errors.ts';
import { type Project, repeatedLinkUrlDetail, toProject } from '../schemas/project.ts';
import { missingProject } from '../services/aliases.ts';
import { recordRevisions } from '../services/revisions.ts';
import { claimIdentity, linksTaken, writeBody } from '../services/write-body.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { EditProjectInput, EditProjectOutput, editProjectMeta } from './edit-project.types.ts';
import { projectEtag, projectNotFound } from './get-project.ts';

/** The project with the edit applied: given fields replace, `null` clears, the rest stay. */
function edited(current: Project, input: EditProjectInput): Project {
  const pick = <K extends keyof EditProjectInput & keyof Project>(key: K) =>
    (input[key] === undefined ? current[key] : input[key]) as Project[K];
  const linkIds = new Map(current.links.map((l) => [urlKey(l.url), l.id]));
  return {
    ...current,
    name: pick('name'),
    nameEn: pick('nameEn'),
    description: pick('description'),
    descriptionEn: pick('descriptionEn'),
    content: pick('content'),
    contentEn: pick('contentEn'),
    status: pick('status'),
    tags: input.tags
      ? input.tags.map((t) => ({ id: '', slug: '', name: t.name, nameEn: t.nameEn ?? null }))
      : current.tags,
    links: input.links
      ? input.links.map((l) => ({
          // a url kept (by key) keeps its link's id
          id: linkIds.get(urlKey(l.url)) ?? createId(),
          type: l.type,
          url: l.url,
          title: l.title ?? null,
        }))
      : current.links,
  };
}

/** Whether an edit changes what endpoint 2 shows (a tag's nameEn only when one is given). */
function changes(current: Project, next: Project, input: EditProjectInput): boolean {
  const fields = [
    'name',
    'nameEn',
    'description',
    'descriptionEn',
    'content',
    'contentEn',
    'status',
  ] as const;
  if (fields.some((f) => current[f] !== next[f])) return true;
  if (input.tags) {
    if (input.tags.length !== current.tags.length) return true;
    if (
      input.tags.some(
        (t, i) =>
          t.name !== current.tags[i]!.name || (t.nameEn != null && t.nameEn !== current.tags[i]!.nameEn),
      )
    )
      return true;
  }
  const link = (l: Project['links'][number]) => `${l.type} ${l.url} ${l.title ?? ''}`;
  return JSON.stringify(current.links.map(link)) !== JSON.stringify(next.links.map(link));
}

/**
 * PATCH /api/projects/{slug} (docs/curation.md#patch-apiprojectsslug-with-if-match--curate). The identity
 * locks of the new links and the slug are taken first (as an upsert takes them, so the two never wait on
 * each other in opposite order), then the row; If-Match is compared with the locked row, so two edits sent
 * with the same ETag cannot both pass.
 */
export const editProject = keyedProcedure
  .meta(editProjectMeta)
  .input(EditProjectInput)
  .output(EditProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    if (input.links) {
      const repeated = repeatedLinkUrlDetail({ links: input.links });
      if (repeated) throw new AppError('VALIDATION', [repeated]);
    }
    const result = await inTransaction(ctx, async (trx) => {
      const id = await findProjectIdBySlug(trx, input.slug);
      if (id === undefined) throw await missingProject(trx, input.slug, 'write', projectNotFound(input.slug));
      const links = (input.links ?? []).map((l) => ({ id: '', type: l.type, url: l.url, title: null }));
      const claim = await claimIdentity(trx, { id, slug: input.slug, links } as unknown as Project, 'skip');
      const [row] = await findProjectDetailsByIds(trx, [id], true);
      if (!row) throw projectNotFound(input.slug);
      const current = toProject(row);
      if (ctx.ifMatch !== undefined && !ifMatchAccepts(ctx.ifMatch, projectEtag(current))) {
        const latest = await findLatestRevision(trx, id);
        throw new AppError('PRECONDITION_FAILED', [
          `If-Match: Project "${current.slug}" changed since that ETag` +
            (latest
              ? ` (revision ${latest.revision} via "${latest.via}"${latest.actor ? ` by "${latest.actor}"` : ''} at ${latest.at.toISOString()})`
              : '') +
            '; read it again and apply the edit to what it is now',
        ]);
      }
      if (claim.taken.length > 0) throw linksTaken(claim.taken);
      const next = edited(current, input);
      if (!changes(current, next, input)) return { project: current, revision: null };
      await writeBody(trx, next, false);
      const numbers = await recordRevisions(trx, [{ projectId: id, action: 'updated' }], {
        via: 'edit',
        actor,
      });
      const [after] = await findProjectDetailsByIds(trx, [id]);
      return { project: toProject(after!), revision: numbers.get(id) ?? null };
    });
    ctx.setHeader?.('ETag', projectEtag(result.project));
    return { success: true as const, data: result.project, revision: result.revision };
  });
