import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { apiKey } from './api.ts';
import { useI18n } from './i18n.tsx';
import { useApiKey } from './key.tsx';
import { SearchPage } from './pages/Search.tsx';
import { TagsPage } from './pages/Tags.tsx';
import { Link, useLocation } from './router.tsx';

// Pages beyond the first are separate chunks: the search page loads only what it needs.
const ProjectPage = lazy(() => import('./pages/Project.tsx'));
const QueuePage = lazy(() => import('./pages/Queue.tsx'));
const ChangesPage = lazy(() => import('./pages/Changes.tsx'));
const DuplicatesPage = lazy(() => import('./pages/Duplicates.tsx'));
const DeletedPage = lazy(() => import('./pages/Deleted.tsx'));
const SynonymsPage = lazy(() => import('./pages/Synonyms.tsx'));

function route(path: string): { page: ReactNode; section: string } {
  if (path === '/' || path === '/search') return { page: <SearchPage />, section: 'search' };
  if (path === '/tags') return { page: <TagsPage />, section: 'tags' };
  if (path === '/queue') return { page: <QueuePage />, section: 'queue' };
  if (path === '/changes') return { page: <ChangesPage />, section: 'changes' };
  if (path === '/duplicates') return { page: <DuplicatesPage />, section: 'duplicates' };
  if (path === '/deleted') return { page: <DeletedPage />, section: 'deleted' };
  if (path === '/synonyms') return { page: <SynonymsPage />, section: 'synonyms' };
  const project = /^\/projects\/([^/]+)$/.exec(path);
  if (project) return { page: <ProjectPage slug={decodeURIComponent(project[1]!)} />, section: 'search' };
  return { page: <NotFound />, section: '' };
}

function NotFound() {
  const { t } = useI18n();
  return (
    <section className="card">
      <h1>{t.notFound}</h1>
      <p>
        <Link href="/">{t.backToSearch}</Link>
      </p>
    </section>
  );
}

export function App() {
  const { t, lang, setLang } = useI18n();
  const { path } = useLocation();
  const { page, section } = route(path);
  const key = useApiKey();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // After a navigation, focus moves to the page (for screen readers and keyboards).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
  }, [path]);

  const nav: [string, string, string][] = [
    ['/', 'search', t.navSearch],
    ['/tags', 'tags', t.navTags],
    ['/queue', 'queue', t.navQueue],
    ['/changes', 'changes', t.navChanges],
    ['/duplicates', 'duplicates', t.navDuplicates],
    ['/deleted', 'deleted', t.navDeleted],
    ['/synonyms', 'synonyms', t.navSynonyms],
  ];
  return (
    <>
      <a className="skip" href="#main">
        {t.skipToContent}
      </a>
      <header className="top">
        <div className="top-inner">
          <Link href="/" className="brand">
            <span className="logo" aria-hidden="true">
              P
            </span>
            {t.appName}
          </Link>
          <nav aria-label={t.nav}>
            <ul>
              {nav.map(([href, id, label]) => (
                <li key={id}>
                  <Link href={href} aria-current={section === id ? 'page' : undefined}>
                    {label}
                  </Link>
                </li>
              ))}
              <li>
                <a href="/api/docs">{t.navApi}</a>
              </li>
            </ul>
          </nav>
          <div className="top-actions">
            {key && (
              <button type="button" className="ghost" onClick={() => apiKey.set(null)}>
                {t.keyForget}
              </button>
            )}
            <button
              type="button"
              className="lang"
              lang={lang === 'zh' ? 'en' : 'zh-CN'}
              aria-label={`${t.switchTo} · ${t.switchToLabel}`}
              onClick={() => setLang(lang === 'zh' ? 'en' : 'zh')}
            >
              {t.switchTo}
            </button>
          </div>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Suspense fallback={<p className="muted">{t.loading}</p>}>{page}</Suspense>
      </main>
    </>
  );
}
