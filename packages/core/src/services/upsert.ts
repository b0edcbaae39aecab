import {
  type Database,
  findProjectDetailsByIds,
  findProjectsByIdentity,
  insertProjects,
  type Kysely,
  type LinksAndTags,
  lockKeys,
  type ProjectFields,
  type ProjectWrite,
  replaceLinksAndTags,
  updateProjects,
} from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { identityKeys, identityLockKeys } from '../domain/identity.ts';
import { applyLock } from '../domain/locks.ts';
import type { RevisionContext } from '../domain/revision-context.ts';
import { fallbackSlug } from '../domain/slug.ts';
import { urlKey } from '../domain/url-key.ts';
import type { LockField, ProjectInput } from '../schemas/project.ts';
import { recordRevisions } from './revisions.ts';
import { resolveTagIds } from './tags.ts';

export type UpsertAction = 'created' | 'updated';

export interface UpsertResult {
  id: string;
  slug: string;
  action: UpsertAction;
  /** An update of a locked project: its locked fields, kept as they were (EXTENSIONS F). */
  kept?: LockField[] | undefined;
}

/** An update makes the project exactly the input: left-out optional fields become null. */
export function projectFields(input: ProjectInput): ProjectFields {
  return {
    name: input.name,
    name_en: input.nameEn ?? null,
    description: input.description,
    description_en: input.descriptionEn ?? null,
    content: input.content ?? null,
    content_en: input.contentEn ?? null,
    status: input.status ?? 'ACTIVE',
    source: input.source ?? null,
  };
}

/**
 * Creates or updates the project each input identifies, with its tags and links replaced,
 * with the same outcome as upserting the inputs one after the other, but in a few set-based
 * statements per batch rather than several per item. Must run inside a transaction; the
 * inputs must be valid and none may list a url twice.
 *
 * Concurrency: advisory locks on every identity key of the batch are taken first, before
 * anything is read, so concurrent upserts (in any process) that could identify or create the
 * same project run one after the other, and the later one sees the earlier one's project.
 *
 * Order within the batch: inputs are written in runs. A run is the longest stretch of inputs
 * that share no identity key and do not find the same stored project; such inputs cannot see
 * each other's writes, so writing them together equals writing them in turn. An input that
 * shares a key with an earlier one of the stretch, or finds the project an earlier one is
 * about to change, starts the next run and is identified again once this run is written.
 */
export async function upsertInOrder(
  trx: Kysely<Database>,
  inputs: ProjectInput[],
  how: RevisionContext,
): Promise<UpsertResult[]> {
  const items = inputs.map((input, position) => {
    const keys = identityKeys(input);
    return { input, position, keys, lockKeys: identityLockKeys(keys) };
  });
  await lockKeys(
    trx,
    items.flatMap((item) => item.lockKeys),
  );
  const tagIds = await resolveTagIds(
    trx,
    inputs.flatMap((input) => input.tags),
  );

  const results: UpsertResult[] = [];
  while (results.length < items.length) {
    const sharedKeys = new Set<string>();
    const candidates: typeof items = [];
    for (const item of items.slice(results.length)) {
      if (item.lockKeys.some((key) => sharedKeys.has(key))) break;
      for (const key of item.lockKeys) sharedKeys.add(key);
      candidates.push(item);
    }
    const found = await findProjectsByIdentity(
      trx,
      candidates.map((item) => item.keys),
    );
    const claimed = new Set<string>();
    const run: {
      item: (typeof items)[number];
      existing: { id: string; slug: string; lockFields: string[] | null } | undefined;
    }[] = [];
    for (const [i, item] of candidates.entries()) {
      const existing = found[i];
      if (existing !== undefined) {
        if (claimed.has(existing.id)) break;
        claimed.add(existing.id);
      }
      run.push({ item, existing });
    }

    // Locked projects (EXTENSIONS F) keep their locked fields: their stored values are read
    // (and the rows locked) first; nothing is read when none of the run is locked.
    const lockedIds = run.flatMap(({ existing }) => (existing?.lockFields ? [existing.id] : []));
    const stored = new Map((await findProjectDetailsByIds(trx, lockedIds, true)).map((row) => [row.id, row]));

    const inserts: (ProjectWrite & { slug: string })[] = [];
    const updates: ProjectWrite[] = [];
    const replacements: LinksAndTags[] = [];
    const revisions: { projectId: string; action: UpsertAction }[] = [];
    for (const { item, existing } of run) {
      const id = existing?.id ?? createId();
      const slug = existing?.slug ?? item.keys.slug ?? fallbackSlug('project', id);
      const storedRow = stored.get(id);
      const locked =
        storedRow && existing?.lockFields ? applyLock(item.input, storedRow, existing.lockFields) : undefined;
      const input = locked?.input ?? item.input;
      const projectTagIds =
        locked?.tagIds ?? [...new Set(input.tags.map((t) => t.name))].map((name) => tagIds.get(name)!);
      const write = {
        id,
        fields: projectFields(input),
        position: item.position,
      };
      if (existing) updates.push(write);
      else inserts.push({ ...write, slug });
      replacements.push({
        projectId: id,
        isNew: !existing,
        links: input.links.map((l) => ({
          type: l.type,
          url: l.url,
          urlKey: urlKey(l.url),
          title: l.title ?? null,
        })),
        tagIds: projectTagIds,
      });
      const action = existing ? 'updated' : 'created';
      results.push({ id, slug, action, ...(locked && { kept: locked.kept }) });
      revisions.push({ projectId: id, action });
    }
    await insertProjects(trx, inserts);
    await updateProjects(trx, updates);
    await replaceLinksAndTags(trx, replacements, () => createId());
    await recordRevisions(trx, revisions, how);
  }
  return results;
}

/** One input: a batch of one. */
export async function upsertProject(
  trx: Kysely<Database>,
  input: ProjectInput,
  how: RevisionContext,
): Promise<UpsertResult> {
  const [result] = await upsertInOrder(trx, [input], how);
  return result!;
}
