import type { CachedProject, ProjectBody } from '../read-model/detail-cache.ts';
import { Prerendered } from '../render-json.ts';
import type { ProjectListItem } from './find-projects.types.ts';

/** A list item's own fields: a list adds one of its own after them (`match`, `related`). */
type ListFields = Omit<ProjectListItem, 'match'>;

/**
 * A project's list item without content or the list's own field, as JSON without its closing
 * brace: what the detail cache keeps per project version (CachedProject.listPrefix), so that a
 * page of projects shown before is written from bytes, not serialised again (GET /api/projects
 * and GET /api/projects/{slug}/related share it).
 */
const renderListPrefix = (p: ProjectBody): Buffer =>
  Buffer.from(JSON.stringify(plainListItem(p, undefined, false)).slice(0, -1));

/**
 * A list item that carries its JSON: its own fields are the item's (what JSON.stringify, tRPC
 * and tests see), and `jsonBytes` (what renderJson writes) is the project's kept prefix and the
 * list's own field after it.
 */
class ListItemJson extends Prerendered {
  readonly #project: CachedProject;
  readonly #extra: Record<string, unknown> | undefined;

  constructor(project: CachedProject, extra: Record<string, unknown> | undefined) {
    super();
    this.#project = project;
    this.#extra = extra;
  }

  jsonBytes(): Buffer {
    let tail = '';
    for (const [key, value] of Object.entries(this.#extra ?? {}))
      if (value !== undefined) tail += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
    return Buffer.concat([this.#project.listPrefix(renderListPrefix), Buffer.from(`${tail}}`)]);
  }
}

/**
 * A project as a list shows it, with the list's own field (`{ match }`, `{ related }`) after
 * its fields; carrying its JSON from the project's kept prefix unless it shows content.
 */
export function listItem<E extends Record<string, unknown>>(
  p: CachedProject,
  extra: E | undefined,
  withContent: boolean,
): ListFields & E {
  const item = plainListItem(p.body, extra, withContent);
  if (withContent) return item;
  return Object.assign(new ListItemJson(p, extra), item);
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
    signals: p.signals ?? { stars: null, downloads: null },
    ...(extra as E),
  };
}
