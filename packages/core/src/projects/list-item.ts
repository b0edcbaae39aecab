import type { ProjectBody } from '../read-model/detail-cache.ts';
import { renderAs } from '../render-json.ts';
import type { ProjectListItem } from './find-projects.types.ts';

/** A list item's own fields: a list adds one of its own after them (`match`, `related`). */
type ListFields = Omit<ProjectListItem, 'match'>;

/**
 * A project's list item without content or the list's own field, as JSON without its closing
 * brace: kept per project object (the read model's objects never change; a newer version is a
 * new object), so that a page of projects shown before is written from bytes, not serialised
 * again (GET /api/projects and GET /api/projects/{slug}/related share it).
 */
const listPrefixes = new WeakMap<ProjectBody, Buffer>();

function listPrefixOf(p: ProjectBody): Buffer {
  let prefix = listPrefixes.get(p);
  if (!prefix) {
    const json = JSON.stringify(plainListItem(p, undefined, false));
    prefix = Buffer.from(json.slice(0, -1));
    listPrefixes.set(p, prefix);
  }
  return prefix;
}

/**
 * A project as a list shows it, with the list's own field (`{ match }`, `{ related }`) after
 * its fields; rendered from its kept prefix unless it shows content.
 */
export function listItem<E extends Record<string, unknown>>(
  p: ProjectBody,
  extra: E | undefined,
  withContent: boolean,
): ListFields & E {
  const item = plainListItem(p, extra, withContent);
  if (withContent) return item;
  return renderAs(item, () => {
    let tail = '';
    for (const [key, value] of Object.entries(extra ?? {}))
      if (value !== undefined) tail += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
    return Buffer.concat([listPrefixOf(p), Buffer.from(`${tail}}`)]);
  });
}

/** A project as a list shows it: its fields in the schema's order, content only when asked for. */
function plainListItem<E extends Record<string, unknown>>(
  p: ProjectBody,
  extra: E | undefined,
  withContent: boolean,
): ListFields & E {
  return {
    id: p.id,
    name: p.name,
    nameEn: p.nameEn,
    slug: p.slug,
    description: p.description,
    descriptionEn: p.descriptionEn,
    ...(withContent && { content: p.content, contentEn: p.contentEn }),
    status: p.status,
    source: p.source,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    tags: p.tags,
    links: p.links,
    ...(extra as E),
  };
}
