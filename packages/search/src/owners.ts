import { Postings } from './postings.ts';

/*
 * Who owns a project's links: the GitHub or Hugging Face organisation (or user) a link's URL
 * names, for related projects (related.ts; docs/search.md#related-projects). Two projects
 * whose links name the same organisation share an owner.
 */

/** Hugging Face paths whose first segment is a kind of repository, not an owner. */
const HF_KINDS = new Set(['datasets', 'spaces', 'models']);
/** GitHub paths whose first segment is a page of the site, not an owner (`orgs/<owner>` is one). */
const GITHUB_PAGES = new Set([
  'about',
  'collections',
  'explore',
  'features',
  'marketplace',
  'settings',
  'sponsors',
  'topics',
  'trending',
]);

/** An owner: `key` compares (lower case), `name` is how the URL spelled it. */
export interface Owner {
  key: string;
  name: string;
}

/** The owner a link's URL names, or undefined (another host, or no owner in its path). */
export function ownerOf(url: string): Owner | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  const segments = parsed.pathname.split('/').filter((s) => s.length > 0);
  let owner: string | undefined;
  let site: string;
  if (host === 'github.com') {
    site = 'github.com';
    owner = segments[0] === 'orgs' ? segments[1] : segments[0];
    if (owner && GITHUB_PAGES.has(owner.toLowerCase())) owner = undefined;
  } else if (host === 'huggingface.co' || host === 'hf.co') {
    site = 'huggingface.co';
    owner = segments[0] && HF_KINDS.has(segments[0]) ? segments[1] : segments[0];
  } else return undefined;
  if (!owner || owner.length > 100) return undefined;
  let name: string;
  try {
    name = `${site}/${decodeURIComponent(owner)}`;
  } catch {
    return undefined;
  }
  return { key: name.toLowerCase(), name };
}

/** The distinct owners of a project's links, in the order of its links. */
export function ownersOf(urls: readonly string[] | undefined): Owner[] {
  const out: Owner[] = [];
  for (const url of urls ?? []) {
    const o = ownerOf(url);
    if (o && !out.some((x) => x.key === o.key)) out.push(o);
  }
  return out;
}

/** The documents of each owner (by key), kept by the store's writes. */
export class OwnerPostings {
  readonly ids = new Map<string, number>();
  readonly docs = new Postings();

  /** Moves document d from its old owners to its new ones. */
  set(d: number, before: readonly Owner[], after: readonly Owner[]): void {
    const old = before.map((o) => o.key);
    const next = after.map((o) => o.key);
    for (const k of old) if (!next.includes(k)) this.docs.delete(this.ids.get(k)!, d);
    for (const k of next) if (!old.includes(k)) this.docs.add(this.idOf(k), d);
  }

  /** An owner's number, if any document ever had it. */
  id(key: string): number | undefined {
    return this.ids.get(key);
  }

  private idOf(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
    }
    return id;
  }

  bytes(): number {
    return this.docs.bytes() + this.ids.size * 64;
  }
}
