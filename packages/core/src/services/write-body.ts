import {
  type Database,
  findLinkKeyOwners,
  insertProjects,
  type Kysely,
  lockKeys,
  replaceLinksAndTags,
  updateProjects,
} from '@directory/db';
import { projectLockKey } from '../domain/identity.ts';
import { createId } from '../domain/ids.ts';
import { urlKey } from '../domain/url-key.ts';
import { AppError } from '../errors.ts';
import type { Project, ProjectInput } from '../schemas/project.ts';
import { projectTagsOf, resolveTags } from './tags.ts';
import { projectFields } from './upsert.ts';

/** A stored project body as the input that writes it again (links keep their ids). */
function inputOf(body: Project): ProjectInput {
  const orUndefined = <T>(v: T | null) => v ?? undefined;
  return {
    name: body.name,
    nameEn: orUndefined(body.nameEn),
    description: body.description,
    descriptionEn: orUndefined(body.descriptionEn),
    content: orUndefined(body.content),
    contentEn: orUndefined(body.contentEn),
    status: body.status,
    source: orUndefined(body.source),
    tags: body.tags.map((t) => ({ name: t.name, nameEn: orUndefined(t.nameEn) })),
    links: body.links.map((l) => ({ type: l.type, url: l.url, title: orUndefined(l.title) })),
    // a body without them (recorded before signals, or never sent) keeps the stored ones
    signals: {
      stars: orUndefined(body.signals?.stars ?? null),
      downloads: orUndefined(body.signals?.downloads ?? null),
    },
  };
}

/**
 * What to do with links whose url key another project owns now
 * (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see).
 */
export type LinkConflicts = 'fail' | 'skip';

/** A link whose url key another project owns now: its position in the body, its url, the owner. */
export interface TakenLink {
  index: number;
  url: string;
  slug: string;
}

/** 409 with one detail per link another project owns now, naming its url and the owner. */
export const linksTaken = (taken: readonly TakenLink[]) =>
  new AppError(
    'CONFLICT',
    taken.map((t) => `links.${t.index}.url: The url "${t.url}" now belongs to project "${t.slug}"`),
  );

/**
 * Takes the identity locks an upsert of `body` would take (its CODEHOST and WEBSITE url keys,
 * its slug), so that no upsert creates a project with one of its urls meanwhile; then looks up
 * the links whose url key another project owns. With `fail`, 409 (linksTaken); with `skip`, the
 * body without them, and them in `taken`.
 */
export async function claimIdentity(
  trx: Kysely<Database>,
  body: Project,
  conflicts: LinkConflicts = 'fail',
): Promise<{ body: Project; taken: TakenLink[] }> {
  const keys = body.links.map((l) => ({ type: l.type, key: urlKey(l.url), url: l.url }));
  await lockKeys(trx, [
    ...keys.flatMap((k) =>
      k.type === 'CODEHOST' || k.type === 'WEBSITE' ? [projectLockKey(k.type, k.key)] : [],
    ),
    projectLockKey('slug', body.slug),
  ]);
  const owners = new Map(
    (
      await findLinkKeyOwners(
        trx,
        keys.map((k) => k.key),
        body.id,
      )
    ).map((o) => [o.urlKey, o.slug]),
  );
  if (owners.size === 0) return { body, taken: [] };
  const taken = keys.flatMap((k, index) => {
    const slug = owners.get(k.key);
    return slug === undefined ? [] : [{ index, url: k.url, slug }];
  });
  if (conflicts === 'fail') throw linksTaken(taken);
  const kept = body.links.filter((_, index) => !owners.has(keys[index]!.key));
  return { body: { ...body, links: kept }, taken };
}

/**
 * Writes a stored body back (a revert, or a restore with `restore`): fields, status, source,
 * tags (by name, as an upsert resolves them) and links exactly as the body has them, links under
 * their recorded ids. A restore inserts the row with its original id, slug, creation time and
 * lock; a revert updates the live row and leaves its lock as it is.
 */
export async function writeBody(trx: Kysely<Database>, body: Project, restore: boolean): Promise<void> {
  const input = inputOf(body);
  const resolved = await resolveTags(trx, input.tags);
  const projectTagIds = projectTagsOf(input.tags, resolved).map((t) => t.id);
  const write = {
    id: body.id,
    fields: projectFields(input),
    position: 0,
  };
  if (restore) {
    await insertProjects(trx, [
      { ...write, slug: body.slug, createdAt: body.createdAt, lock: body.lock ?? null },
    ]);
  } else {
    await updateProjects(trx, [write]);
  }
  await replaceLinksAndTags(
    trx,
    [
      {
        projectId: body.id,
        isNew: restore,
        links: body.links.map((l) => ({
          id: l.id,
          type: l.type,
          url: l.url,
          urlKey: urlKey(l.url),
          title: l.title,
        })),
        tagIds: projectTagIds,
      },
    ],
    (link) => link.id ?? createId(),
  );
}
