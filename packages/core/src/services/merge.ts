import {
  type Database,
  findAliasTarget,
  findMergeParty,
  findProjectDetailBySlug,
  findProjectDetailsByIds,
  findProjectIdBySlug,
  type Kysely,
  lockKeys,
  type MergeParty,
  mergeProjectRows,
  type ProjectDetailRow,
  updateProjects,
} from '@directory/db';
import { projectLockKey } from '../domain/identity.ts';
import type { RevisionContext } from '../domain/revision-context.ts';
import { AppError } from '../errors.ts';
import { projectNotFound } from '../projects/get-project.ts';
import { missingProject } from './aliases.ts';
import { recordDeletions, recordRevisions } from './revisions.ts';
import { projectFields } from './upsert.ts';

export interface MergeResult {
  /** The target as it is after the merge (endpoint 2's row). */
  project: ProjectDetailRow;
  merged: { id: string; slug: string };
}

/** The identity locks an upsert would take to find this project (identity.ts). */
function identityLocks(party: MergeParty): string[] {
  return [
    ...party.links.flatMap((l) =>
      l.type === 'CODEHOST' || l.type === 'WEBSITE' ? [projectLockKey(l.type, l.urlKey)] : [],
    ),
    projectLockKey('slug', party.slug),
  ];
}

/**
 * Merges the project `fromSlug` into the project `intoSlug`
 * (docs/curation.md#same-project-other-spelling): the whole write path of a merge, in the caller's
 * transaction, so that a merge is all or nothing. 404 when either slug names nothing; 409 into itself,
 * into an alias, or from an alias.
 *
 * Concurrency: it takes the advisory locks an upsert takes to identify the source (its CODEHOST
 * and WEBSITE link keys, its slug) before it locks the two rows, in id order. An upsert that
 * would find the source therefore waits, and after the merge finds the target instead (through
 * the moved links or the alias); two merges of the same projects run one after the other, the
 * second seeing the first's outcome (a 404 or 409).
 */
export async function mergeProject(
  trx: Kysely<Database>,
  fromSlug: string,
  intoSlug: string,
  actor: string | null,
): Promise<MergeResult> {
  const fromId = await findProjectIdBySlug(trx, fromSlug);
  if (fromId === undefined) throw await missingProject(trx, fromSlug, 'write', projectNotFound(fromSlug));
  const intoId = await findProjectIdBySlug(trx, intoSlug);
  if (intoId === undefined) {
    const alias = await findAliasTarget(trx, intoSlug);
    if (!alias) throw projectNotFound(intoSlug);
    throw new AppError('CONFLICT', [
      `Cannot merge into "${intoSlug}": it is an alias of "${alias.slug}" (merged into it); merge into "${alias.slug}"`,
    ]);
  }
  if (fromId === intoId) throw new AppError('CONFLICT', [`Cannot merge project "${fromSlug}" into itself`]);

  // Locks: the source's identity keys first (as read now), then both rows in id order; a key
  // the source gained meanwhile is locked once seen. Then everything is read again, locked.
  const unlocked = await findMergeParty(trx, fromSlug, false);
  if (unlocked) await lockKeys(trx, identityLocks(unlocked));
  const parties = new Map<string, MergeParty | undefined>();
  for (const [id, slug] of [
    [fromId, fromSlug],
    [intoId, intoSlug],
  ].sort(([a], [b]) => (a! < b! ? -1 : 1)) as [string, string][]) {
    parties.set(id, await findMergeParty(trx, slug, true));
  }
  const source = parties.get(fromId);
  const target = parties.get(intoId);
  // Gone while this merge waited (deleted, or merged by another request): answered as now.
  if (!source || source.id !== fromId)
    throw await missingProject(trx, fromSlug, 'write', projectNotFound(fromSlug));
  if (!target || target.id !== intoId) throw projectNotFound(intoSlug);
  await lockKeys(trx, identityLocks(source));

  // History (docs/curation.md#history-revert-locks-and-restore): the source's last revision is its body
  // before the merge (action "deleted"), the target's the merged project (action "updated", `merged`
  // naming the source; stored even when the merge changed nothing on it), both via "merge".
  const [sourceBefore] = await findProjectDetailsByIds(trx, [source.id]);
  await mergeProjectRows(trx, source, target);
  await rewriteDerived(trx, (await findProjectDetailBySlug(trx, target.slug))!);
  const merged = (await findProjectDetailBySlug(trx, target.slug))!;
  const how: RevisionContext = { via: 'merge', actor };
  await recordDeletions(trx, [sourceBefore!], how);
  await recordRevisions(trx, [{ projectId: target.id, action: 'updated', merged: [source.slug] }], how);
  return { project: merged, merged: { id: source.id, slug: source.slug } };
}

/**
 * The target's update: updated_at, and its denormalised columns (search columns, tag ids, link
 * types) from its merged content, written as an upsert writes them.
 */
async function rewriteDerived(trx: Kysely<Database>, row: ProjectDetailRow): Promise<void> {
  const input = {
    name: row.name,
    nameEn: row.name_en ?? undefined,
    description: row.description,
    descriptionEn: row.description_en ?? undefined,
    content: row.content ?? undefined,
    contentEn: row.content_en ?? undefined,
    status: row.status,
    source: row.source ?? undefined,
    tags: row.tags.map((t) => ({ name: t.name, nameEn: t.nameEn ?? undefined })),
    links: row.links.map((l) => ({ type: l.type, url: l.url, title: l.title ?? undefined })),
  };
  await updateProjects(trx, [
    {
      id: row.id,
      fields: projectFields(input),
      position: 0,
    },
  ]);
}
