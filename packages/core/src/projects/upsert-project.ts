import {
  type Database,
  findProjectByIdentity,
  insertProject,
  type Kysely,
  lockKeys,
  type ProjectFields,
  replaceLinksAndTags,
  updateProject,
} from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { identityKeys, identityLockKeys } from '../identity.ts';
import type { ProjectInput } from '../schemas/project.ts';
import { fallbackSlug } from '../slug.ts';
import { resolveTagIds } from './tags.ts';

export type UpsertAction = 'created' | 'updated';

/** An update makes the project exactly the input: left-out optional fields become null. */
function projectFields(input: ProjectInput): ProjectFields {
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
 * Creates or updates the project an input identifies, with its tags and links replaced.
 * Must run inside a transaction: the advisory locks on the identity keys (taken first, before
 * reading) make concurrent upserts of one new project, across processes, create it once.
 * The input must be valid and list no url twice.
 */
export async function upsertProject(
  trx: Kysely<Database>,
  input: ProjectInput,
): Promise<{ id: string; action: UpsertAction }> {
  const keys = identityKeys(input);
  await lockKeys(trx, identityLockKeys(keys));
  const existing = await findProjectByIdentity(trx, keys);
  const fields = projectFields(input);
  let id: string;
  if (existing) {
    id = existing.id;
    await updateProject(trx, id, fields);
  } else {
    id = createId();
    await insertProject(trx, { ...fields, id, slug: keys.slug ?? fallbackSlug('project', id) });
  }
  const tagIds = await resolveTagIds(trx, input.tags);
  const links = input.links.map((l) => ({
    id: createId(),
    type: l.type,
    url: l.url,
    title: l.title ?? null,
  }));
  await replaceLinksAndTags(trx, id, links, tagIds);
  return { id, action: existing ? 'updated' : 'created' };
}
