import { standingOf } from '../../../core/src/domain/standing.ts';
import { BASE_QUERY, toIndexed } from '../../src/sample.test-support.ts';
import { SearchIndex } from '../../src/search-index.ts';
import { judgedCorpus } from './corpus.ts';

/** The engine over the judged corpus, each project with its standing: a search function that answers the names of the first ten. */
export function engineOverJudgedCorpus(others?: number): (q: string) => string[] {
  const { projects: samples } = judgedCorpus(others);
  const { projects: indexed, tags } = toIndexed(samples);
  // each project's standing as the read model computes it (no one keeps them; no signals)
  const projects = indexed.map((p) => ({
    ...p,
    standing: standingOf({ kept: false, linkTypes: p.linkTypes, stars: null, downloads: null }),
  }));
  const index = new SearchIndex();
  index.putTags(tags);
  index.put(projects);
  const nameOf = new Map(projects.map((p) => [p.id, p.nameEn ?? p.name]));
  return (q) => index.findProjects({ ...BASE_QUERY, q, limit: 10 }).hits.map((h) => nameOf.get(h.id)!);
}
