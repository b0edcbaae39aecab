import { pinyin } from 'pinyin-pro';

const MAX_SLUG_LENGTH = 100;
const HAN = /\p{Script=Han}/u;

/**
 * The slug of a name, step by step in the order of docs/api.md#slugs-identity-ids-and-order: Chinese
 * characters become toneless pinyin syllables (ü as v) separated by spaces; lower case; Latin diacritics
 * stripped; each run of whitespace becomes one `-`; everything outside [a-z0-9-] removed;
 * repeated `-` collapsed; `-` trimmed at both ends; at most 100 characters. May return ''
 * (the caller then uses its fallback).
 */
export function slugify(source: string): string {
  const spelled = HAN.test(source)
    ? pinyin(source, { toneType: 'none', v: true, nonZh: 'consecutive' })
    : source;
  const slug = spelled
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/\s+/gu, '-')
    .replace(/[^a-z0-9-]+/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
}

/** The slug source of a project or a tag: nameEn when present, otherwise name. */
export function slugSource(item: { name: string; nameEn?: string | null | undefined }): string {
  return item.nameEn ?? item.name;
}

/** `project-<first 8 chars of the id>` or `tag-…`: for names that leave no slug. */
export function fallbackSlug(kind: 'project' | 'tag', id: string): string {
  return `${kind}-${id.slice(0, 8)}`;
}

/** The first of `base`, `base-2`, `base-3`, … that is not taken. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
