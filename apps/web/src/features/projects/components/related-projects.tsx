import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { projectHref } from '../../../config/paths.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { getRelatedProjects, type RelatedProject } from '../api/related.ts';

/** A project's related projects, each saying what it shares (GET /api/projects/{slug}/related). */
export function RelatedProjects({ slug }: { slug: string }) {
  const { t } = useI18n();
  const id = useId();
  const query = useQuery({
    queryKey: ['related', slug],
    queryFn: ({ signal }) => getRelatedProjects(slug, signal),
  });
  return (
    <section className="card related" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.relatedTitle}</h2>
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : query.isError ? (
        <ErrorNote error={query.error} onRetry={() => query.refetch()} />
      ) : query.data.projects.length === 0 ? (
        <p className="muted">{t.relatedNone}</p>
      ) : (
        <ol className="related-list">
          {query.data.projects.map((p) => (
            <RelatedItem key={p.id} project={p} />
          ))}
        </ol>
      )}
    </section>
  );
}

function RelatedItem({ project: p }: { project: RelatedProject }) {
  const { t, lang } = useI18n();
  const [name, other] = localName(lang, p.name, p.nameEn);
  const tagNames = p.related.tags.flatMap((slug) => {
    const tag = p.tags.find((x) => x.slug === slug);
    return tag ? [localName(lang, tag.name, tag.nameEn)[0]] : [];
  });
  const why: [string, string][] = [];
  if (tagNames.length > 0) why.push([t.relatedTags, t.relatedList(tagNames)]);
  if (p.related.words.length > 0) why.push([t.relatedWords, t.relatedList(p.related.words)]);
  if (p.related.owner) why.push([t.relatedOwner, p.related.owner]);
  return (
    <li data-slug={p.slug}>
      <Link className="related-name" href={projectHref(p.slug)}>
        {name}
      </Link>
      {other && <span className="other-name">{other}</span>}
      <dl className="related-why">
        {why.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
