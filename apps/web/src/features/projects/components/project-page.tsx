import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { ErrorBoundary } from '../../../components/error-boundary.tsx';
import { ErrorNote } from '../../../components/error-note.tsx';
import { ScopeNote } from '../../../components/scope-note.tsx';
import { TagChips } from '../../../components/tag-chips.tsx';
import { Time } from '../../../components/time.tsx';
import { editHref, paths, projectHref } from '../../../config/paths.ts';
import { ApiError, LINK_TYPES } from '../../../lib/api-client.ts';
import { type Lang, localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { renderMarkdown } from '../../../lib/markdown.ts';
import { useCan } from '../../../lib/own-key.ts';
import { Link, navigate, useLocation } from '../../../lib/router.tsx';
import { getProject, type Project } from '../api/get-project.ts';
import { History } from './history.tsx';
import { LockControl } from './lock-control.tsx';
import { RelatedProjects } from './related-projects.tsx';

export default function ProjectPage({ slug }: { slug: string }) {
  const { t, lang } = useI18n();
  const { search } = useLocation();
  const from = search.get('from');
  const tab = search.get('tab') === 'history' ? 'history' : 'project';
  const { can: canCurate } = useCan('curate');
  const query = useQuery({
    queryKey: ['project', slug],
    queryFn: ({ signal }) => getProject(slug, signal),
  });
  // A merged slug answers 301 and the browser follows it: the target is shown under its own
  // address, saying where the visitor came from.
  const target = query.data?.data.slug;
  useEffect(() => {
    if (target !== undefined && target !== slug)
      navigate(projectHref(target, { from: slug }), { replace: true });
  }, [target, slug]);
  if (query.isPending) return <p className="muted">{t.loading}</p>;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404)
      return (
        <section className="card">
          <h1>{t.notFound}</h1>
          <p>{t.projectNotFound}</p>
          <p>
            <Link href={paths.search}>{t.backToSearch}</Link>
          </p>
        </section>
      );
    return <ErrorNote error={query.error} onRetry={() => query.refetch()} />;
  }
  const project = query.data.data;
  const [name, other] = localName(lang, project.name, project.nameEn);
  // The current language's column first.
  const columns: Lang[] = lang === 'en' ? ['en', 'zh'] : ['zh', 'en'];
  return (
    <article className="project">
      <header className="project-head">
        <p>
          <Link href={paths.search}>← {t.backToSearch}</Link>
        </p>
        {from && (
          <p className="alias-note" role="status">
            {t.aliasNote(from)}
          </p>
        )}
        <h1>
          {name}
          {other && <span className="other-name">{other}</span>}
        </h1>
        {canCurate ? (
          <p>
            <Link className="button-link" href={editHref(project.slug)}>
              {t.edit}
            </Link>
          </p>
        ) : (
          <ScopeNote scope="curate" />
        )}
        <dl className="facts">
          <div>
            <dt>{t.status}</dt>
            <dd>
              <span className={`badge ${project.status === 'ACTIVE' ? 'ok-badge' : 'muted-badge'}`}>
                {t[project.status]}
              </span>
            </dd>
          </div>
          {project.source && (
            <div>
              <dt>{t.source}</dt>
              <dd>{project.source}</dd>
            </div>
          )}
          {(['stars', 'downloads'] as const).map((signal) => {
            const value = project.signals?.[signal];
            return value === null || value === undefined ? null : (
              <div key={signal}>
                <dt>{t[signal]}</dt>
                <dd data-signal={signal}>{value.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en')}</dd>
              </div>
            );
          })}
          <div>
            <dt>{t.created}</dt>
            <dd>
              <Time iso={project.createdAt} />
            </dd>
          </div>
          <div>
            <dt>{t.updated}</dt>
            <dd>
              <Time iso={project.updatedAt} />
            </dd>
          </div>
        </dl>
        <TagChips tags={project.tags} />
        <LockControl key={`${project.slug} ${project.lock?.at ?? ''}`} project={project} />
        <nav className="tabs project-tabs" aria-label={t.historyTitle}>
          {(['project', 'history'] as const).map((id) => (
            <Link
              key={id}
              className="tab"
              href={projectHref(project.slug, id === 'history' ? { tab: 'history' } : {})}
              aria-current={tab === id ? 'page' : undefined}
            >
              {id === 'history' ? t.tabHistory : t.tabProject}
            </Link>
          ))}
        </nav>
      </header>
      {tab === 'history' ? (
        <History slug={project.slug} />
      ) : (
        <div className="project-body">
          <div className="columns">
            {columns.map((column) => (
              <LanguageColumn key={column} project={project} column={column} />
            ))}
          </div>
          <aside className="project-side">
            <Links project={project} />
            <RelatedProjects slug={project.slug} />
          </aside>
        </div>
      )}
    </article>
  );
}

function LanguageColumn({ project, column }: { project: Project; column: Lang }) {
  const { t } = useI18n();
  const id = useId();
  const zh = column === 'zh';
  const name = zh ? project.name : (project.nameEn ?? project.name);
  const description = zh ? project.description : project.descriptionEn;
  const content = zh ? project.content : project.contentEn;
  return (
    <section
      className="card column"
      lang={zh ? 'zh-CN' : 'en'}
      aria-labelledby={`${id}-h`}
      data-column={column}
    >
      <h2 id={`${id}-h`}>
        <span className="column-lang">{zh ? t.chinese : t.english}</span> {name}
      </h2>
      {description ? <p className="lead">{description}</p> : <p className="muted">{t.none}</p>}
      {content ? (
        <ErrorBoundary fallback={<p className="markdown markdown-plain">{content}</p>}>
          <Content text={content} />
        </ErrorBoundary>
      ) : (
        <p className="muted">{t.noContent}</p>
      )}
    </section>
  );
}

/** A project's content as markdown, or as the plain text it is when it cannot be rendered (markdown.ts). */
function Content({ text }: { text: string }) {
  const html = renderMarkdown(text);
  if (html === null) return <p className="markdown markdown-plain">{text}</p>;
  return (
    <div
      className="markdown"
      // Safe: renderMarkdown escapes raw HTML and sanitizes its output (markdown.ts).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

function Links({ project }: { project: Project }) {
  const { t } = useI18n();
  const id = useId();
  if (project.links.length === 0) return null;
  return (
    <section className="card links" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.links}</h2>
      {LINK_TYPES.filter((type) => project.links.some((l) => l.type === type)).map((type) => (
        <div key={type} className="link-group">
          <h3>{t[type]}</h3>
          <ul>
            {project.links
              .filter((l) => l.type === type)
              .map((l) => (
                <li key={l.id}>
                  <a href={l.url} rel="noopener noreferrer nofollow" target="_blank">
                    {l.title ?? l.url}
                  </a>
                  <span className="url">{l.url}</span>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
