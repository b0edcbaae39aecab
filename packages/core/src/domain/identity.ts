import type { IdentityKeys } from '@directory/db';
import type { ProjectInput } from '../schemas/project.ts';
import { slugify, slugSource } from './slug.ts';
import { urlKey } from './url-key.ts';

/**
 * The upsert identity rule (docs/api.md#slugs-identity-ids-and-order; url keys:
 * docs/curation.md#same-project-other-spelling): an input is the stored project that has one of its
 * CODEHOST urls' keys as a CODEHOST link's key (in the input's order), else one of its WEBSITE urls' keys
 * as a WEBSITE link's key, else the slug generated from the input. Among projects sharing a key the oldest
 * wins. findProjectsByIdentity runs exactly this order.
 */
export function identityKeys(input: ProjectInput): IdentityKeys {
  const keysOf = (type: 'CODEHOST' | 'WEBSITE') =>
    input.links.filter((l) => l.type === type).map((l) => urlKey(l.url));
  const slug = slugify(slugSource(input));
  return { codehostKeys: keysOf('CODEHOST'), websiteKeys: keysOf('WEBSITE'), slug: slug || null };
}

/**
 * The advisory-lock keys of an input: one per identifying url key (not spelling: two spellings
 * of one repository must serialise) and one for the slug. Two upserts that could identify, or
 * create, the same project share at least one lock, so they run one after the other and the
 * second sees the first's project.
 */
export function identityLockKeys(keys: IdentityKeys): string[] {
  return [
    ...keys.codehostKeys.map((k) => projectLockKey('CODEHOST', k)),
    ...keys.websiteKeys.map((k) => projectLockKey('WEBSITE', k)),
    ...(keys.slug ? [projectLockKey('slug', keys.slug)] : []),
  ];
}

/** The lock of one identity key; a merge takes those of the project it removes. */
export function projectLockKey(kind: 'CODEHOST' | 'WEBSITE' | 'slug', value: string): string {
  return `project:${kind}:${value}`;
}
