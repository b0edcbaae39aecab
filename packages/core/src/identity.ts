import type { IdentityKeys } from '@directory/db';
import type { ProjectInput } from './schemas/project.ts';
import { slugify, slugSource } from './slug.ts';

/**
 * The upsert identity rule (SPEC endpoint 1, rule 1; DECISIONS "Identity"): an input is the
 * stored project that has one of its CODEHOST urls as a CODEHOST link (in the input's order),
 * else one of its WEBSITE urls as a WEBSITE link, else the slug generated from the input.
 * Among projects sharing a url the oldest wins. findProjectByIdentity runs exactly this order.
 */
export function identityKeys(input: ProjectInput): IdentityKeys {
  const urlsOf = (type: 'CODEHOST' | 'WEBSITE') =>
    input.links.filter((l) => l.type === type).map((l) => l.url);
  const slug = slugify(slugSource(input));
  return { codehostUrls: urlsOf('CODEHOST'), websiteUrls: urlsOf('WEBSITE'), slug: slug || null };
}

/**
 * The advisory-lock keys of an input: one per identifying url and one for the slug. Two
 * upserts that could identify, or create, the same project share at least one key, so they
 * run one after the other and the second sees the first's project.
 */
export function identityLockKeys(keys: IdentityKeys): string[] {
  return [
    ...keys.codehostUrls.map((u) => `project:CODEHOST:${u}`),
    ...keys.websiteUrls.map((u) => `project:WEBSITE:${u}`),
    ...(keys.slug ? [`project:slug:${keys.slug}`] : []),
  ];
}
