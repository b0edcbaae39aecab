import { readFileSync } from 'node:fs';
import { pinyin } from 'pinyin-pro';
import type { IndexedProject, IndexedTag, LinkType, ProjectQuery, ProjectStatus } from './types.ts';

/** A project of fixtures/projects.sample.json (as endpoint 1 takes it). */
export interface SampleProject {
  name: string;
  nameEn?: string;
  description: string;
  descriptionEn?: string;
  status?: ProjectStatus;
  source?: string;
  tags: { name: string; nameEn?: string }[];
  links: { type: LinkType; url: string }[];
}

export const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as SampleProject[];

/** A query with every filter off, by relevance, 100 a page: the tests spread their own fields over it. */
export const BASE_QUERY: ProjectQuery = {
  tagSlugs: [],
  tagMode: 'all',
  linkTypes: [],
  sort: 'relevance',
  order: 'desc',
  limit: 100,
  facets: [],
};

/**
 * The slug rule (docs/api.md#slugs-identity-ids-and-order), enough for tests: pinyin for Chinese, `-` for
 * spaces.
 */
export function slugOf(source: string): string {
  const spelled = /\p{Script=Han}/u.test(source)
    ? pinyin(source, { toneType: 'none', v: true, nonZh: 'consecutive' })
    : source;
  return spelled
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/\s+/gu, '-')
    .replace(/[^a-z0-9-]+/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Turns sample projects into what the engine indexes: tags by name (first nameEn wins), ids in order. */
export function toIndexed(
  samples: SampleProject[],
  idOf: (i: number) => string = (i) => `p${String(i).padStart(4, '0')}`,
  startAt = Date.UTC(2026, 0, 1),
): { projects: IndexedProject[]; tags: IndexedTag[] } {
  const tags = new Map<string, IndexedTag>();
  const slugs = new Set<string>();
  const projects = samples.map((s, i): IndexedProject => {
    const tagIds = s.tags.map((t) => {
      let tag = tags.get(t.name);
      if (!tag) {
        let slug = slugOf(t.nameEn ?? t.name) || `tag-${tags.size}`;
        while ([...tags.values()].some((x) => x.slug === slug)) slug += '-2';
        tag = { id: `t${String(tags.size).padStart(3, '0')}`, name: t.name, nameEn: t.nameEn ?? null, slug };
        tags.set(t.name, tag);
      } else if (tag.nameEn === null && t.nameEn) tag.nameEn = t.nameEn;
      return tag.id;
    });
    let slug = slugOf(s.nameEn ?? s.name) || `project-${i}`;
    while (slugs.has(slug)) slug += '-2';
    slugs.add(slug);
    return {
      id: idOf(i),
      name: s.name,
      nameEn: s.nameEn ?? null,
      slug,
      description: s.description,
      descriptionEn: s.descriptionEn ?? null,
      status: s.status ?? 'ACTIVE',
      source: s.source ?? null,
      createdAt: startAt + i * 1000,
      updatedAt: startAt + i * 1000,
      tagIds: [...new Set(tagIds)],
      linkTypes: s.links.map((l) => l.type),
      linkUrls: s.links.map((l) => l.url),
    };
  });
  return { projects, tags: [...tags.values()] };
}
