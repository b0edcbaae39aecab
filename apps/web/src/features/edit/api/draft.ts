import type { EditInput, Project } from './edit.ts';

type LinkType = Project['links'][number]['type'];

/** The edit form's values: every text as typed (an empty optional field clears it). */
export interface Draft {
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  content: string;
  contentEn: string;
  status: Project['status'];
  tags: { name: string; nameEn: string }[];
  links: { type: LinkType; url: string; title: string }[];
}

export const TEXT_FIELDS = [
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'content',
  'contentEn',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
const OPTIONAL: readonly TextField[] = ['nameEn', 'descriptionEn', 'content', 'contentEn'];

export function draftOf(p: Project): Draft {
  return {
    name: p.name,
    nameEn: p.nameEn ?? '',
    description: p.description,
    descriptionEn: p.descriptionEn ?? '',
    content: p.content ?? '',
    contentEn: p.contentEn ?? '',
    status: p.status,
    tags: p.tags.map((t) => ({ name: t.name, nameEn: t.nameEn ?? '' })),
    links: p.links.map((l) => ({ type: l.type, url: l.url, title: l.title ?? '' })),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What the form changed from `base`, as PATCH takes it: only those fields; empty optional text is null. */
export function patchOf(base: Draft, draft: Draft): EditInput {
  const patch: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) {
    if (draft[f] === base[f]) continue;
    const value = draft[f].trim();
    patch[f] = value === '' && OPTIONAL.includes(f) ? null : value;
  }
  if (draft.status !== base.status) patch.status = draft.status;
  if (!same(draft.tags, base.tags))
    patch.tags = draft.tags.map((t) => ({
      name: t.name.trim(),
      ...(t.nameEn.trim() && { nameEn: t.nameEn.trim() }),
    }));
  if (!same(draft.links, base.links))
    patch.links = draft.links.map((l) => ({
      type: l.type,
      url: l.url.trim(),
      ...(l.title.trim() && { title: l.title.trim() }),
    }));
  return patch as EditInput;
}

/** The fields whose values differ between two drafts (a conflict shows these side by side). */
export function differing(a: Draft, b: Draft): (keyof Draft)[] {
  return (Object.keys(a) as (keyof Draft)[]).filter((k) => !same(a[k], b[k]));
}
