import type { ProjectDetailRow } from '@directory/db';
import { LOCK_FIELDS, type LockField, type ProjectInput } from '../schemas/project.ts';

/**
 * What an upsert or a complete writes to a locked project
 * (docs/curation.md#history-revert-locks-and-restore): the input, with each locked field taken from the
 * stored project instead; `kept` lists the locked fields (all of them, in LOCK_FIELDS order: what the
 * write did not take from its input, whether or not the input differed). Identity was decided on the input
 * before, and is not affected. Locked tags keep their stored ids (`tagIds`).
 */
export function applyLock(
  input: ProjectInput,
  stored: ProjectDetailRow,
  lockFields: readonly string[],
): { input: ProjectInput; kept: LockField[]; tagIds: string[] | undefined } {
  const kept = LOCK_FIELDS.filter((f) => lockFields.includes(f));
  const locked = (field: LockField) => kept.includes(field);
  const orUndefined = <T>(v: T | null) => v ?? undefined;
  const effective: ProjectInput = {
    ...input,
    name: locked('name') ? stored.name : input.name,
    nameEn: locked('nameEn') ? orUndefined(stored.name_en) : input.nameEn,
    description: locked('description') ? stored.description : input.description,
    descriptionEn: locked('descriptionEn') ? orUndefined(stored.description_en) : input.descriptionEn,
    content: locked('content') ? orUndefined(stored.content) : input.content,
    contentEn: locked('contentEn') ? orUndefined(stored.content_en) : input.contentEn,
    status: locked('status') ? stored.status : input.status,
    tags: locked('tags')
      ? stored.tags.map((t) => ({ name: t.name, nameEn: orUndefined(t.nameEn) }))
      : input.tags,
    links: locked('links')
      ? stored.links.map((l) => ({ type: l.type, url: l.url, title: orUndefined(l.title) }))
      : input.links,
  };
  return { input: effective, kept, tagIds: locked('tags') ? stored.tags.map((t) => t.id) : undefined };
}
