import { lazy, type ReactNode } from 'react';
import { matchProject, matchProjectEdit, paths, SEARCH_ALIAS } from '../config/paths.ts';
import { SearchPage } from '../features/search/components/search-page.tsx';
import { TagsPage } from '../features/tags/components/tags-page.tsx';
import { useI18n } from '../lib/i18n/i18n.tsx';
import { Link } from '../lib/router.tsx';

// Pages beyond the first are separate chunks: the search page loads only what it needs.
const ProjectPage = lazy(() => import('../features/projects/components/project-page.tsx'));
const QueuePage = lazy(() => import('../features/queue/components/queue-page.tsx'));
const ChangesPage = lazy(() => import('../features/changes/components/changes-page.tsx'));
const DuplicatesPage = lazy(() => import('../features/duplicates/components/duplicates-page.tsx'));
const DeletedPage = lazy(() => import('../features/deleted/components/deleted-page.tsx'));
const SynonymsPage = lazy(() => import('../features/synonyms/components/synonyms-page.tsx'));
const EditPage = lazy(() => import('../features/edit/components/edit-page.tsx'));
const WebhooksPage = lazy(() => import('../features/webhooks/components/webhooks-page.tsx'));
const KeysPage = lazy(() => import('../features/keys/components/keys-page.tsx'));
const SignInPage = lazy(() => import('../features/keys/components/sign-in-page.tsx'));
const CurateTagsPage = lazy(() => import('../features/tags/components/curate-tags-page.tsx'));

/** The page at `path`, and the section of the navigation it belongs to. */
export function route(path: string): { page: ReactNode; section: string } {
  if (path === paths.search || path === SEARCH_ALIAS) return { page: <SearchPage />, section: 'search' };
  if (path === paths.tags) return { page: <TagsPage />, section: 'tags' };
  if (path === paths.curateTags) return { page: <CurateTagsPage />, section: 'tags' };
  if (path === paths.queue) return { page: <QueuePage />, section: 'queue' };
  if (path === paths.changes) return { page: <ChangesPage />, section: 'changes' };
  if (path === paths.duplicates) return { page: <DuplicatesPage />, section: 'duplicates' };
  if (path === paths.deleted) return { page: <DeletedPage />, section: 'deleted' };
  if (path === paths.synonyms) return { page: <SynonymsPage />, section: 'synonyms' };
  if (path === paths.webhooks) return { page: <WebhooksPage />, section: 'webhooks' };
  if (path === paths.keys) return { page: <KeysPage />, section: 'keys' };
  if (path === paths.signIn) return { page: <SignInPage />, section: 'sign-in' };
  const editing = matchProjectEdit(path);
  if (editing !== null) return { page: <EditPage slug={editing} />, section: 'search' };
  const slug = matchProject(path);
  if (slug !== null) return { page: <ProjectPage slug={slug} />, section: 'search' };
  return { page: <NotFound />, section: '' };
}

function NotFound() {
  const { t } = useI18n();
  return (
    <section className="card">
      <h1>{t.notFound}</h1>
      <p>
        <Link href={paths.search}>{t.backToSearch}</Link>
      </p>
    </section>
  );
}
