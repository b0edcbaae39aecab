import type { ProjectDetailRow } from '@directory/db';
import { z } from 'zod';
import { urlKey } from '../domain/url-key.ts';
import { httpUrl, iso, optional, text, timestamp } from './common.ts';
import { LOCK_FIELDS } from './lock-fields.ts';

const LINK_TYPES = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'] as const;
const PROJECT_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;

export const LinkType = z.enum(LINK_TYPES);
export const ProjectStatus = z.enum(PROJECT_STATUSES);

export const TagInput = z.object({
  // Tag names are unique and indexed; 200 characters keeps them well inside an index entry.
  name: text({ min: 1, max: 200 }),
  nameEn: optional(text({ min: 1, max: 200 })),
});

export const LinkInput = z.object({
  type: LinkType,
  url: httpUrl,
  title: optional(text()),
});

/** A signal: a whole number ≥ 0 that JavaScript holds exactly (at most 2^53 − 1). */
const signal = () => z.int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * What a writer knows of a project's reach (docs/search.md#signals-and-standing): its stars and
 * downloads. Unknown keys are refused, so that a misspelt signal is not silently dropped; a key
 * left out keeps the stored value (docs/decisions.md#signals).
 */
export const SignalsInput = z
  .strictObject({ stars: optional(signal()), downloads: optional(signal()) })
  .meta({ id: 'SignalsInput' });

/**
 * The payload of a project to create or update
 * (docs/api.md#1-post-apiwebhookprojects-create-or-update-projects).
 */
export const ProjectInput = z
  .object({
    name: text({ min: 1, max: 200 }),
    nameEn: optional(text({ min: 1, max: 200 })),
    description: text({ min: 10, max: 500 }),
    descriptionEn: optional(text({ min: 10, max: 500 })),
    content: optional(text({ max: 10000 })),
    contentEn: optional(text({ max: 10000 })),
    status: optional(ProjectStatus),
    source: optional(text()),
    tags: z.array(TagInput).min(1).max(10),
    links: z.array(LinkInput).min(1).max(10),
    signals: optional(SignalsInput),
  })
  .meta({ id: 'ProjectInput' });
export type ProjectInput = z.infer<typeof ProjectInput>;

/**
 * The first link url of an input whose key an earlier link has, if any (a project holds each
 * url key once, docs/curation.md#same-project-other-spelling), with the position of that earlier link.
 */
export function repeatedLinkUrl(
  input: Pick<ProjectInput, 'links'>,
): { url: string; index: number; first: { url: string; index: number } } | undefined {
  const seen = new Map<string, { url: string; index: number }>();
  for (const [index, link] of input.links.entries()) {
    const key = urlKey(link.url);
    const first = seen.get(key);
    if (first) return { url: link.url, index, first };
    seen.set(key, { url: link.url, index });
  }
  return undefined;
}

/** The validation detail for a url listed twice, the path dotted from `prefix`; undefined when none is. */
export function repeatedLinkUrlDetail(input: Pick<ProjectInput, 'links'>, prefix = ''): string | undefined {
  const repeated = repeatedLinkUrl(input);
  if (!repeated) return undefined;
  const { url, index, first } = repeated;
  const detail = `${prefix}links.${index}.url: The url "${url}" is listed twice`;
  return first.url === url ? detail : `${detail} (as "${first.url}" at links.${first.index}.url)`;
}

export const Tag = z.object({
  id: z.string(),
  name: z.string(),
  nameEn: z.string().nullable(),
  slug: z.string(),
});

const Link = z.object({
  id: z.string(),
  type: LinkType,
  url: z.string(),
  title: z.string().nullable(),
});

export { LOCK_FIELDS };
export const LockField = z.enum(LOCK_FIELDS);
export type LockField = z.infer<typeof LockField>;

export const ProjectLock = z
  .object({
    fields: z.array(LockField).meta({ description: 'What an upsert or a complete keeps as it is' }),
    reason: z.string().nullable(),
    at: timestamp,
  })
  .meta({ id: 'ProjectLock' });
export type ProjectLock = z.infer<typeof ProjectLock>;

/**
 * What may be wrong with an update of endpoint 1 or 8, absent when nothing is
 * (docs/curation.md#updates-that-may-be-wrong).
 */
export const UpsertWarnings = z
  .array(z.string())
  .optional()
  .meta({
    description:
      "Only when the update may be wrong: found by slug only while its CODEHOST/WEBSITE links differ from the stored project's " +
      '(`["matched by slug only; its CODEHOST/WEBSITE links differ from the stored project\'s"]`). The update happened all the same',
  });

/** A project's signals as stored (docs/search.md#signals-and-standing): null when never sent. */
export const Signals = z
  .object({ stars: z.int().min(0).nullable(), downloads: z.int().min(0).nullable() })
  .meta({ id: 'Signals' });
export type Signals = z.infer<typeof Signals>;

export const Project = z
  .object({
    id: z.string(),
    name: z.string(),
    nameEn: z.string().nullable(),
    slug: z.string(),
    description: z.string(),
    descriptionEn: z.string().nullable(),
    content: z.string().nullable(),
    contentEn: z.string().nullable(),
    status: ProjectStatus,
    source: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    tags: z.array(Tag),
    links: z.array(Link),
    /** Absent only in revisions recorded before signals existed. */
    signals: Signals.optional(),
    /**
     * The lock
     * (docs/curation.md#locks-put-apiprojectssluglock-fields-reason-delete-apiprojectssluglock--key):
     * endpoint 2 always has it (null: not locked); lists may leave it out.
     */
    lock: ProjectLock.nullable()
      .optional()
      .meta({ description: 'The fields an upsert or complete keeps (a lock); null when not locked' }),
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;

export function toProject(row: ProjectDetailRow): Project {
  return {
    id: row.id,
    name: row.name,
    nameEn: row.name_en,
    slug: row.slug,
    description: row.description,
    descriptionEn: row.description_en,
    content: row.content,
    contentEn: row.content_en,
    status: row.status,
    source: row.source,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    tags: row.tags,
    links: row.links,
    signals: { stars: row.stars, downloads: row.downloads },
    ...(row.lock_fields !== undefined && { lock: lockOf(row) }),
  };
}

/** A row's lock as the API shows it; null when it has none; undefined when the row was read without it. */
export function lockOf(
  row: Partial<Pick<ProjectDetailRow, 'lock_fields' | 'lock_reason' | 'lock_at'>>,
): ProjectLock | null | undefined {
  if (row.lock_fields === undefined) return undefined;
  if (row.lock_fields === null || !row.lock_at) return null;
  return {
    fields: LOCK_FIELDS.filter((f) => row.lock_fields!.includes(f)),
    reason: row.lock_reason ?? null,
    at: iso(row.lock_at),
  };
}
