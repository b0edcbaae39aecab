import { z } from 'zod';
import { ExportHeader } from '../export/export.types.ts';
import { text, timestamp } from '../schemas/common.ts';
import {
  LinkInput,
  LockField,
  ProjectInput,
  ProjectStatus,
  SignalsInput,
  TagInput,
} from '../schemas/project.ts';

/**
 * The lines of an export (docs/operating.md#restore-from-an-export), as a restore reads them: the
 * header, then each project exactly as endpoint 2 answers it. A project's fields are checked by
 * the rules of endpoint 1's ProjectInput (the same schemas), its ids, slugs and times as strings
 * the database can hold; an unknown field is refused, since a restore that dropped it would not
 * give back what was exported. The header is the export's (export.types.ts), bounded.
 */
export const RestoreHeader = ExportHeader.extend({
  cursor: text({ min: 1, max: 500 }),
  count: z.int().min(0).max(100_000_000),
});
export type RestoreHeader = z.infer<typeof RestoreHeader>;

/** An id as the service makes them (cuid2), or any id an older directory gave: short, plain. */
const id = () =>
  text({ min: 1, max: 100 }).refine((s) => /^[\w-]+$/.test(s), 'Must be letters, digits, "_" or "-"');

/** A slug as stored: never re-made by a restore, only checked to be one a URL path can hold. */
const slug = () =>
  text({ min: 1, max: 300 }).refine(
    (s) => !/[\s/?#%\\]/u.test(s),
    'Must not contain whitespace, /, ?, #, % or \\',
  );

const RestoredTag = z.strictObject({
  id: id(),
  name: TagInput.shape.name,
  nameEn: TagInput.shape.nameEn,
  slug: slug(),
});

const RestoredLink = z.strictObject({
  id: id(),
  type: LinkInput.shape.type,
  url: LinkInput.shape.url,
  title: LinkInput.shape.title,
});

const RestoredLock = z.strictObject({
  fields: z.array(LockField).min(1).max(LockField.options.length),
  reason: text({ min: 1, max: 500 }).nullable(),
  at: timestamp,
});

export const RestoredProject = z.strictObject({
  id: id(),
  slug: slug(),
  /** Slugs of projects merged into this one, when the export carries them. */
  aliases: z.array(slug()).max(1000).optional(),
  name: ProjectInput.shape.name,
  nameEn: ProjectInput.shape.nameEn,
  description: ProjectInput.shape.description,
  descriptionEn: ProjectInput.shape.descriptionEn,
  content: ProjectInput.shape.content,
  contentEn: ProjectInput.shape.contentEn,
  status: ProjectStatus,
  source: ProjectInput.shape.source,
  createdAt: timestamp,
  updatedAt: timestamp,
  tags: z.array(RestoredTag).min(1).max(10),
  links: z.array(RestoredLink).min(1).max(10),
  signals: SignalsInput.optional(),
  lock: RestoredLock.nullable().optional(),
});
export type RestoredProject = z.infer<typeof RestoredProject>;
