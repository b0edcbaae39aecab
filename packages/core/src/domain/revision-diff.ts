import type { Project } from '../schemas/project.ts';

/** The fields a diff compares one by one (tags and links are compared as sets). */
export const DIFF_FIELDS = [
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'content',
  'contentEn',
  'status',
  'source',
  'slug',
  'signals',
  'lock',
] as const;

type Tag = Project['tags'][number];
type Link = Project['links'][number];

export interface ProjectDiff {
  changed: Record<string, { from: unknown; to: unknown }>;
  tags: { added: Tag[]; removed: Tag[] };
  links: { added: Link[]; removed: Link[] };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What changed from `from` to `to` (docs/curation.md#history-revert-locks-and-restore): each differing
 * field with both values; tags added and removed (a tag is its id); links added and removed (a link is its
 * type, url and title: a retitled link is one removed and one added). `from` undefined is "nothing": every
 * field of `to` that has a value is changed from null, every tag and link added.
 */
export function diffProjects(from: Project | undefined, to: Project): ProjectDiff {
  const changed: ProjectDiff['changed'] = {};
  for (const field of DIFF_FIELDS) {
    const a = from?.[field] ?? null;
    const b = to[field] ?? null;
    if (!same(a, b)) changed[field] = { from: a, to: b };
  }
  const tagIds = (tags: Tag[]) => new Set(tags.map((t) => t.id));
  const linkKey = (l: Link) => JSON.stringify([l.type, l.url, l.title]);
  const linkKeys = (links: Link[]) => new Set(links.map(linkKey));
  const fromTags = tagIds(from?.tags ?? []);
  const toTags = tagIds(to.tags);
  const fromLinks = linkKeys(from?.links ?? []);
  const toLinks = linkKeys(to.links);
  return {
    changed,
    tags: {
      added: to.tags.filter((t) => !fromTags.has(t.id)),
      removed: (from?.tags ?? []).filter((t) => !toTags.has(t.id)),
    },
    links: {
      added: to.links.filter((l) => !fromLinks.has(linkKey(l))),
      removed: (from?.links ?? []).filter((l) => !toLinks.has(linkKey(l))),
    },
  };
}
