import {
  type Database,
  diffLinksAndTags,
  findProjectDetailsByIds,
  findProjectsByIdentity,
  type IdentifiedProject,
  type IndexedProjectRow,
  type Kysely,
  type LinksAndTags,
  lockKeysAndFindTags,
  type NewRevision,
  type ProjectFields,
  type ProjectWrite,
  type TagDetail,
  writeProjectBatch,
} from '@directory/db';
import { identityKeys, identityLockKeys } from '../domain/identity.ts';
import { createId } from '../domain/ids.ts';
import { applyLock } from '../domain/locks.ts';
import type { RevisionContext } from '../domain/revision-context.ts';
import { fallbackSlug } from '../domain/slug.ts';
import { upsertWarnings } from '../domain/upsert-warnings.ts';
import { urlKey } from '../domain/url-key.ts';
import { type LockField, lockOf, type Project, type ProjectInput } from '../schemas/project.ts';
import type { WrittenRows } from '../transaction.ts';
import { revisionOfBody } from './revisions.ts';
import { projectTagsOf, resolveTags, tagLookupsOf } from './tags.ts';

export type UpsertAction = 'created' | 'updated';

export interface UpsertResult {
  id: string;
  slug: string;
  action: UpsertAction;
  /**
   * An update of a locked project: its locked fields, kept as they were
   * (docs/curation.md#history-revert-locks-and-restore).
   */
  kept?: LockField[] | undefined;
  /**
   * An update that may be wrong: found by slug only while its CODEHOST/WEBSITE links differ from the
   * stored project's (docs/curation.md#updates-that-may-be-wrong). Absent when there is none.
   */
  warnings?: string[] | undefined;
}

/**
 * An update makes the project exactly the input: left-out optional fields become null, but for
 * the signals, where a left-out one keeps the stored value (docs/decisions.md#signals).
 */
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
    stars: input.signals?.stars ?? null,
    downloads: input.signals?.downloads ?? null,
  };
}

/** An ISO 8601 time (milliseconds, as endpoint 2 shows it) `micros` microseconds after the epoch. */
const isoOfMicros = (micros: bigint): string => new Date(Number(micros / 1000n)).toISOString();

/**
 * Creates or updates the project each input identifies, with its tags and links replaced,
 * with the same outcome as upserting the inputs one after the other, but in a few set-based
 * statements per batch rather than several per item. Must run inside a transaction; the
 * inputs must be valid and none may list a url twice.
 *
 * Concurrency: advisory locks on every identity key of the batch are taken first, before
 * anything is read, so concurrent upserts (in any process) that could identify or create the
 * same project run one after the other, and the later one sees the earlier one's project. A
 * project that another kind of write (a revert, a merge, a lock) changes between this upsert's
 * read and its write makes the transaction start again (writeProjectBatch).
 *
 * Order within the batch: inputs are written in runs. A run is the longest stretch of inputs
 * that share no identity key and do not find the same stored project; such inputs cannot see
 * each other's writes, so writing them together equals writing them in turn. An input that
 * shares a key with an earlier one of the stretch, or finds the project an earlier one is
 * about to change, starts the next run and is identified again once this run is written.
 *
 * Round trips: one for the locks, the stored tags and the transaction's time; then
 * per run one to identify the projects (with their stored links and tags) and one that writes
 * them, their links and tags and their revisions. The revision bodies are built here from what
 * the write holds, not read back; the written projects are returned as the read model indexes
 * them too (`rows`: the caller adds them to the request's record once the transaction commits,
 * transaction.ts), so that it does not read them back either.
 */
export async function upsertInOrder(
  trx: Kysely<Database>,
  inputs: ProjectInput[],
  how: RevisionContext,
): Promise<{ results: UpsertResult[]; rows: WrittenRows }> {
  const items = inputs.map((input, position) => {
    const keys = identityKeys(input);
    return { input, position, keys, lockKeys: identityLockKeys(keys) };
  });
  const allTags = inputs.flatMap((input) => input.tags);
  const start = await lockKeysAndFindTags(
    trx,
    items.flatMap((item) => item.lockKeys),
    tagLookupsOf(allTags),
  );
  const tags = await resolveTags(trx, allTags, start.tags);

  const results: UpsertResult[] = [];
  const indexed: IndexedProjectRow[] = [];
  const tagsOfIndexed = new Map<string, TagDetail>();
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
    const run: { item: (typeof items)[number]; existing: IdentifiedProject | undefined }[] = [];
    for (const [i, item] of candidates.entries()) {
      const existing = found[i];
      if (existing !== undefined) {
        if (claimed.has(existing.id)) break;
        claimed.add(existing.id);
      }
      run.push({ item, existing });
    }

    // Locked projects (docs/curation.md#history-revert-locks-and-restore) keep their locked fields: their
    // stored values are read (and the rows locked) first; nothing is read when none of the run is locked.
    const lockedIds = run.flatMap(({ existing }) => (existing?.lockFields ? [existing.id] : []));
    const stored = new Map((await findProjectDetailsByIds(trx, lockedIds, true)).map((row) => [row.id, row]));

    const inserts: (ProjectWrite & { slug: string })[] = [];
    const updates: (ProjectWrite & { version: string })[] = [];
    const replacements: LinksAndTags[] = [];
    const drafts: {
      project: Omit<Project, 'links'>;
      action: UpsertAction;
      linkTypes: IndexedProjectRow['linkTypes'];
      linkUrls: string[];
      kept: boolean;
      warnings: string[];
    }[] = [];
    for (const { item, existing } of run) {
      const id = existing?.id ?? createId();
      const slug = existing?.slug ?? item.keys.slug ?? fallbackSlug('project', id);
      const storedRow = stored.get(id);
      const locked =
        storedRow && existing?.lockFields ? applyLock(item.input, storedRow, existing.lockFields) : undefined;
      const input = locked?.input ?? item.input;
      const projectTags: TagDetail[] = locked?.tagIds ? storedRow!.tags : projectTagsOf(input.tags, tags);
      const fields = projectFields(input);
      // decided where the match is: the stored links came with the project, nothing more is read
      const warnings = existing ? upsertWarnings(existing.matchedBy, existing.links, item.keys) : [];
      const write = { id, fields, position: item.position };
      if (existing) updates.push({ ...write, version: existing.version });
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
        tagIds: projectTags.map((t) => t.id),
      });
      const at = isoOfMicros(start.nowMicros + BigInt(item.position));
      drafts.push({
        action: existing ? 'updated' : 'created',
        linkTypes: input.links.map((l) => l.type),
        linkUrls: input.links.map((l) => l.url),
        kept: existing?.kept ?? false,
        warnings,
        // endpoint 2's shape, in toProject's key order (the revision's hash is of this text)
        project: {
          id,
          name: fields.name,
          nameEn: fields.name_en ?? null,
          slug,
          description: fields.description,
          descriptionEn: fields.description_en ?? null,
          content: fields.content ?? null,
          contentEn: fields.content_en ?? null,
          status: fields.status ?? 'ACTIVE',
          source: fields.source ?? null,
          createdAt: existing ? existing.createdAt.toISOString() : at,
          updatedAt: at,
          tags: projectTags.map((t) => ({ id: t.id, name: t.name, nameEn: t.nameEn, slug: t.slug })),
          // as stored after the write: a signal left out keeps the stored one
          signals: {
            stars: fields.stars ?? existing?.stars ?? null,
            downloads: fields.downloads ?? existing?.downloads ?? null,
          },
          lock: existing
            ? (lockOf({
                lock_fields: existing.lockFields,
                lock_reason: existing.lockReason,
                lock_at: existing.lockAt,
              }) ?? null)
            : null,
        },
      });
      for (const t of projectTags) tagsOfIndexed.set(t.id, t);
      results.push({
        id,
        slug,
        action: existing ? 'updated' : 'created',
        ...(locked && { kept: locked.kept }),
        ...(warnings.length > 0 && { warnings }),
      });
    }
    const diff = diffLinksAndTags(
      replacements,
      {
        links: run.flatMap(({ existing }) => existing?.links ?? []),
        tags: run.flatMap(({ existing }) => existing?.tags ?? []),
      },
      () => createId(),
    );
    const revisions: NewRevision[] = [];
    if (how.record !== false)
      for (const [i, { project, action, warnings }] of drafts.entries()) {
        const links = replacements[i]!.links;
        const ids = diff.linkIds.get(project.id)!;
        const { lock, signals, ...rest } = project;
        const body: Project = {
          ...rest,
          links: links.map((l, i) => ({ id: ids[i]!, type: l.type, url: l.url, title: l.title })),
          signals,
          lock,
        };
        revisions.push({ ...revisionOfBody(body, action, how), ...(warnings.length > 0 && { warnings }) });
      }
    const times = new Map(
      (await writeProjectBatch(trx, { inserts, updates, links: diff, revisions })).map((t) => [t.id, t]),
    );
    for (const { project, linkTypes, linkUrls, kept } of drafts) {
      const t = times.get(project.id)!;
      indexed.push({
        id: project.id,
        name: project.name,
        nameEn: project.nameEn,
        slug: project.slug,
        description: project.description,
        descriptionEn: project.descriptionEn,
        status: project.status,
        source: project.source,
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        tagIds: project.tags.map((tag) => tag.id),
        linkTypes,
        linkUrls,
        stars: project.signals?.stars ?? null,
        downloads: project.signals?.downloads ?? null,
        kept,
      });
    }
  }
  return { results, rows: { projects: indexed, tags: [...tagsOfIndexed.values()] } };
}

/** One input: a batch of one. */
export async function upsertProject(
  trx: Kysely<Database>,
  input: ProjectInput,
  how: RevisionContext,
): Promise<{ result: UpsertResult; rows: WrittenRows }> {
  const { results, rows } = await upsertInOrder(trx, [input], how);
  return { result: results[0]!, rows };
}
