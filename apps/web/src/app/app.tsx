import { Suspense, useEffect, useRef } from 'react';
import { paths } from '../config/paths.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';
import { useOwnKey } from '../lib/own-key.ts';
import { Link, useLocation } from '../lib/router.tsx';
import { KeyMenu } from './key-menu.tsx';
import { route } from './routes.tsx';

/** The shell: the header with the navigation and the language switch, and the page of the address. */
export function App() {
  const { t, lang, setLang } = useI18n();
  const { path } = useLocation();
  const { page, section } = route(path);
  const { own } = useOwnKey();
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
    [paths.search, 'search', t.navSearch],
    [paths.tags, 'tags', t.navTags],
    [paths.queue, 'queue', t.navQueue],
    [paths.changes, 'changes', t.navChanges],
    [paths.duplicates, 'duplicates', t.navDuplicates],
    [paths.deleted, 'deleted', t.navDeleted],
    [paths.synonyms, 'synonyms', t.navSynonyms],
    [paths.webhooks, 'webhooks', t.navWebhooks],
    // only for a key that may manage keys
    ...(own?.scopes.includes('keys:admin')
      ? [[paths.keys, 'keys', t.navKeys] as [string, string, string]]
      : []),
  ];
  return (
    <>
      <a className="skip" href="#main">
        {t.skipToContent}
      </a>
      <header className="top">
        <div className="top-inner">
          <Link href={paths.search} className="brand">
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
                <a href={paths.apiDocs}>{t.navApi}</a>
              </li>
            </ul>
          </nav>
          <div className="top-actions">
            <KeyMenu />
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
