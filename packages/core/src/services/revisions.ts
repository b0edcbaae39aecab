import {
  type Database,
  findProjectDetailsByIds,
  insertRevisions,
  type Kysely,
  type NewRevision,
  type ProjectDetailRow,
  type RevisionAction,
} from '@directory/db';
import { projectBody } from '../domain/revision-body.ts';
import type { RevisionContext } from '../domain/revision-context.ts';
import { nextPass } from '../read-model/turns.ts';
import { type Project, toProject } from '../schemas/project.ts';
import { currentNamedKey, currentSummary } from './request-key.ts';

/**
 * Every write path of a project calls this after its writes, in its transaction, while it holds
 * the projects' row locks (migration 2026_11_25_000800_history argues why here and not in a
 * trigger): it reads the written projects back as endpoint 2 shows them and stores one revision
 * per write, numbered after the project's latest; an update whose project equals its latest
 * revision (but for `updatedAt`) stores none (the insert itself compares). Two round trips for a
 * whole batch: the read, and one insert that reads each project's latest revision as it goes.
 * Several writes of one project in one call are not allowed (a batch writes each project once
 * per run, and calls this once per run). Returns the numbers of the revisions stored, by project.
 */
export async function recordRevisions(
  trx: Kysely<Database>,
  writes: readonly {
    projectId: string;
    action: Exclude<RevisionAction, 'deleted'>;
    /** A merge's revision of the project kept: the slugs merged into it (stored even if nothing changed). */
    merged?: string[];
  }[],
  how: RevisionContext,
): Promise<Map<string, number>> {
  if (writes.length === 0 || how.record === false) return new Map();
  const rows = await findProjectDetailsByIds(
    trx,
    writes.map((w) => w.projectId),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const revisions: NewRevision[] = [];
  // in slices, the event loop's other work between them (a tag merge records thousands)
  for (let i = 0; i < writes.length; i += BODIES_PER_PASS) {
    if (i > 0) await nextPass();
    for (const { projectId, action, merged } of writes.slice(i, i + BODIES_PER_PASS)) {
      const row = byId.get(projectId);
      if (!row) throw new Error(`recordRevisions: project ${projectId} was not written`);
      revisions.push({ ...revisionOf(row, action, how), ...(merged && { merged }) });
    }
  }
  return insertRevisions(trx, revisions);
}

/** Revision bodies made in one go (~20 µs each). */
const BODIES_PER_PASS = 500;

/** The revision of deleted projects: their bodies as read (locked) just before the delete. */
export async function recordDeletions(
  trx: Kysely<Database>,
  deleted: readonly ProjectDetailRow[],
  how: RevisionContext,
): Promise<void> {
  await insertRevisions(
    trx,
    deleted.map((row) => revisionOf(row, 'deleted', how)),
  );
}

function revisionOf(row: ProjectDetailRow, action: RevisionAction, how: RevisionContext): NewRevision {
  return revisionOfBody(toProject(row), action, how);
}

/**
 * The revision of a project whose body the write path built itself (the upsert),
 * exactly as recordRevisions makes it from the row it reads back.
 */
export function revisionOfBody(project: Project, action: RevisionAction, how: RevisionContext): NewRevision {
  const { body, hash } = projectBody(project);
  const key = currentNamedKey();
  return {
    projectId: project.id,
    action,
    via: how.via,
    source: project.source,
    taskId: how.taskId ?? null,
    actor: how.actor,
    keyId: key?.id ?? null,
    keyName: key?.name ?? null,
    slug: project.slug,
    name: project.name,
    nameEn: project.nameEn,
    bodyHash: hash,
    body,
    summary: currentSummary(),
  };
}
