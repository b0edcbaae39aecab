import type { LinkType } from '../tables.ts';

export interface NewLink {
  /** The id to give the link if it is inserted (a revert, a restore); otherwise a new one is made. */
  id?: string | undefined;
  type: LinkType;
  url: string;
  /** core's urlKey(url). */
  urlKey: string;
  title: string | null;
}

export interface LinksAndTags {
  projectId: string;
  /** Inserted by this transaction: it has no links or tags to read first. */
  isNew: boolean;
  links: NewLink[];
  tagIds: string[];
}

export interface StoredLink {
  id: string;
  project_id: string;
  url: string;
  url_key: string;
  type: LinkType;
  title: string | null;
  position: number;
}

export interface StoredTagLink {
  project_id: string;
  tag_id: string;
  position: number;
}

/** The rows to write to bring the stored links and tag associations to the submitted lists. */
export interface LinksAndTagsDiff {
  linkInserts: StoredLink[];
  linkUpdates: StoredLink[];
  /** Link ids. */
  linkDeletes: string[];
  tagInserts: StoredTagLink[];
  tagUpdates: StoredTagLink[];
  tagDeletes: StoredTagLink[];
  /** Each project's link ids after the write, in submitted order (kept links keep theirs). */
  linkIds: Map<string, string[]>;
}

/**
 * Compares each project's submitted links and tags with the stored ones (those of the projects
 * that are not new): a stored link whose url key is submitted again keeps its row (and id) and is
 * updated when its spelling, type, title or position changed, a stored tag association is updated
 * when its position changed; the rest are deleted or inserted.
 */
export function diffLinksAndTags(
  projects: readonly LinksAndTags[],
  stored: { links: StoredLink[]; tags: StoredTagLink[] },
  newId: (link: NewLink) => string,
): LinksAndTagsDiff {
  const storedLinks = new Map(stored.links.map((l) => [`${l.project_id} ${l.url_key}`, l]));
  const storedTags = new Map(stored.tags.map((t) => [`${t.project_id} ${t.tag_id}`, t]));

  const linkInserts: StoredLink[] = [];
  const linkUpdates: StoredLink[] = [];
  const tagInserts: StoredTagLink[] = [];
  const tagUpdates: StoredTagLink[] = [];
  const linkIds = new Map<string, string[]>();
  for (const { projectId, links, tagIds } of projects) {
    const ids: string[] = [];
    linkIds.set(projectId, ids);
    for (const [position, { urlKey, ...link }] of links.entries()) {
      const key = `${projectId} ${urlKey}`;
      const old = storedLinks.get(key);
      storedLinks.delete(key);
      const row = { ...link, url_key: urlKey, project_id: projectId, position };
      const id = old ? old.id : newId({ urlKey, ...link });
      ids.push(id);
      if (!old) linkInserts.push({ ...row, id });
      else if (
        old.url !== link.url ||
        old.type !== link.type ||
        old.title !== link.title ||
        old.position !== position
      )
        linkUpdates.push({ ...row, id: old.id });
    }
    for (const [position, tagId] of tagIds.entries()) {
      const key = `${projectId} ${tagId}`;
      const old = storedTags.get(key);
      storedTags.delete(key);
      if (!old) tagInserts.push({ project_id: projectId, tag_id: tagId, position });
      else if (old.position !== position) tagUpdates.push({ project_id: projectId, tag_id: tagId, position });
    }
  }
  // What is left of the stored rows was not submitted again.
  const linkDeletes = [...storedLinks.values()].map((l) => l.id);
  const tagDeletes = [...storedTags.values()];
  return { linkInserts, linkUpdates, linkDeletes, tagInserts, tagUpdates, tagDeletes, linkIds };
}
