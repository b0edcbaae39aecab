import { grants, SCOPES } from '@directory/core/scopes';
import { KeyGate } from '../../../components/key-gate.tsx';
import { paths } from '../../../config/paths.ts';
import { apiKey } from '../../../lib/api-key.ts';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { useOwnKey } from '../../../lib/own-key.ts';
import { Link } from '../../../lib/router.tsx';

/** Sign in with a personal key; once in, who the key is and what it may and may not do. */
export default function SignInPage() {
  const { t } = useI18n();
  return (
    <KeyGate title={t.signInTitle} help={t.signInHelp}>
      <OwnKeyCard />
    </KeyGate>
  );
}

function OwnKeyCard() {
  const { t } = useI18n();
  const { own } = useOwnKey();
  if (!own) return <p className="muted">{t.loading}</p>;
  const lacking = SCOPES.filter((s) => !grants(own.scopes, s));
  return (
    <section className="card own-key">
      <h1>{t.ownKeyTitle(own.name)}</h1>
      {own.start && (
        <p>
          <code>{own.start}…</code>
        </p>
      )}
      <h2>{t.ownKeyMay}</h2>
      <ul className="scopes-may">
        {own.scopes.map((s) => (
          <li key={s}>
            <code>{s}</code> — {t.scopeAction[s]}
          </li>
        ))}
      </ul>
      {lacking.length > 0 && (
        <>
          <h2>{t.ownKeyMayNot}</h2>
          <ul className="scopes-may-not">
            {lacking.map((s) => (
              <li key={s}>
                <code>{s}</code> — {t.scopeAction[s]}
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        <Link href={paths.search}>{t.backToSearch}</Link>{' '}
        <button type="button" className="ghost" onClick={() => apiKey.set(null)}>
          {t.signOut}
        </button>
      </p>
    </section>
  );
}
