import type { RestoreClashes, RestoredProjectRow } from '@directory/db';
import { urlKey } from '../domain/url-key.ts';
import { issueDetails } from '../errors.ts';
import { RestoredProject } from '../restore/restore-line.types.ts';
import { LOCK_FIELDS, type Project, repeatedLinkUrlDetail } from '../schemas/project.ts';

/** At most this many problems are named in one answer (the first ones, by line). */
export const MAX_LINE_DETAILS = 50;

/** A line of the export checked: the row it writes, with its line number. */
export interface CheckedLine {
  line: number;
  row: RestoredProjectRow;
}

const orNull = <T>(v: T | undefined | null): T | null => v ?? null;

/**
 * Each project of a batch checked on its own (the schema: endpoint 1's rules for its fields) and
 * against the others of the batch: ids in increasing order (after `afterId`), every slug and
 * alias once, one tag id for one name and slug. Problems are `line <n>: <path>: <message>`.
 */
export function checkLines(
  items: readonly unknown[],
  firstLine: number,
  afterId: string | null,
): { lines: CheckedLine[]; problems: string[] } {
  const problems: string[] = [];
  const lines: CheckedLine[] = [];
  const slugs = new Map<string, number>();
  const tags = new Map<string, { name: string; nameEn: string | null; slug: string; line: number }>();
  const tagIdsByName = new Map<string, string>();
  const tagIdsBySlug = new Map<string, string>();
  let previous = afterId;
  for (const [i, item] of items.entries()) {
    const line = firstLine + i;
    const at = `line ${line}`;
    const parsed = RestoredProject.safeParse(item);
    if (!parsed.success) {
      problems.push(...issueDetails(parsed.error.issues, [], 'body').map((d) => `${at}: ${d}`));
      continue;
    }
    const p = parsed.data;
    const repeated = repeatedLinkUrlDetail(p);
    if (repeated) problems.push(`${at}: ${repeated}`);
    if (previous !== null && !(p.id > previous))
      problems.push(
        `${at}: id: "${p.id}" is not after "${previous}" (an export is in id order, each id once)`,
      );
    previous = p.id;
    if (Date.parse(p.updatedAt) < Date.parse(p.createdAt))
      problems.push(`${at}: updatedAt: Is before createdAt`);
    for (const s of [p.slug, ...(p.aliases ?? [])]) {
      const seen = slugs.get(s);
      if (seen !== undefined)
        problems.push(`${at}: slug: "${s}" is also the slug or an alias on line ${seen}`);
      else slugs.set(s, line);
    }
    const own = new Set<string>();
    for (const [j, t] of p.tags.entries()) {
      const tag = { name: t.name, nameEn: orNull(t.nameEn), slug: t.slug };
      if (own.has(t.id)) problems.push(`${at}: tags.${j}.id: The tag "${t.id}" is listed twice`);
      own.add(t.id);
      const seen = tags.get(t.id);
      if (seen && (seen.name !== tag.name || seen.nameEn !== tag.nameEn || seen.slug !== tag.slug))
        problems.push(`${at}: tags.${j}: The tag "${t.id}" differs from line ${seen.line}'s`);
      if (!seen) tags.set(t.id, { ...tag, line });
      for (const [by, key] of [
        [tagIdsByName, t.name],
        [tagIdsBySlug, t.slug],
      ] as const) {
        const other = by.get(key);
        if (other !== undefined && other !== t.id)
          problems.push(`${at}: tags.${j}: "${key}" names the tags "${other}" and "${t.id}"`);
        by.set(key, t.id);
      }
    }
    lines.push({ line, row: rowOf(p) });
  }
  return { lines, problems };
}

/**
 * What the batch names that the directory holds already (from the restore's earlier batches): a
 * slug, or a tag whose id, name or slug is stored otherwise than the line has it.
 */
export function clashProblems(lines: readonly CheckedLine[], clashes: RestoreClashes): string[] {
  const problems: string[] = [];
  const byId = new Map(clashes.tags.map((t) => [t.id, t]));
  for (const { line, row } of lines) {
    for (const s of [row.slug, ...row.aliases])
      if (clashes.slugs.has(s))
        problems.push(`line ${line}: slug: "${s}" is already restored (an earlier line)`);
    for (const [j, t] of row.tags.entries()) {
      const stored = byId.get(t.id);
      const same = stored && stored.name === t.name && stored.nameEn === t.nameEn && stored.slug === t.slug;
      const other = clashes.tags.find((s) => s.id !== t.id && (s.name === t.name || s.slug === t.slug));
      if ((stored && !same) || other)
        problems.push(
          `line ${line}: tags.${j}: The tag "${t.id}" differs from the one an earlier line restored`,
        );
    }
  }
  return problems;
}

function rowOf(p: RestoredProject): RestoredProjectRow {
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    nameEn: orNull(p.nameEn),
    description: p.description,
    descriptionEn: orNull(p.descriptionEn),
    content: orNull(p.content),
    contentEn: orNull(p.contentEn),
    status: p.status,
    source: orNull(p.source),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    stars: orNull(p.signals?.stars),
    downloads: orNull(p.signals?.downloads),
    lock: p.lock ? { fields: p.lock.fields, reason: p.lock.reason, at: p.lock.at } : null,
    tags: p.tags.map((t) => ({ id: t.id, name: t.name, nameEn: orNull(t.nameEn), slug: t.slug })),
    links: p.links.map((l) => ({
      id: l.id,
      type: l.type,
      url: l.url,
      urlKey: urlKey(l.url),
      title: orNull(l.title),
    })),
    aliases: p.aliases ?? [],
  };
}

/** The project as endpoint 2 will answer it once written (its revision's body), keys in its order. */
export function projectOfRow(row: RestoredProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    nameEn: row.nameEn,
    slug: row.slug,
    description: row.description,
    descriptionEn: row.descriptionEn,
    content: row.content,
    contentEn: row.contentEn,
    status: row.status,
    source: row.source,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    tags: row.tags,
    links: row.links.map((l) => ({ id: l.id, type: l.type, url: l.url, title: l.title })),
    signals: { stars: row.stars, downloads: row.downloads },
    // endpoint 2 lists a lock's fields in LOCK_FIELDS order (lockOf)
    lock: row.lock && { ...row.lock, fields: LOCK_FIELDS.filter((f) => row.lock!.fields.includes(f)) },
  };
}
