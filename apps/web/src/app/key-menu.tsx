import { paths } from '../config/paths.ts';
import { apiKey } from '../lib/api-key.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';
import { useOwnKey } from '../lib/own-key.ts';
import { Link } from '../lib/router.tsx';

/** The header's sign-in: "Sign in", or the name of the key in use (its page) and "Sign out". */
export function KeyMenu() {
  const { t } = useI18n();
  const { key, own } = useOwnKey();
  if (!key)
    return (
      <Link href={paths.signIn} className="button-like ghost sign-in">
        {t.signIn}
      </Link>
    );
  return (
    <>
      <Link href={paths.signIn} className="key-name" title={t.signedInAs}>
        <span className="visually-hidden">{t.signedInAs} </span>
        {own?.name ?? '…'}
      </Link>
      <button type="button" className="ghost" onClick={() => apiKey.set(null)}>
        {t.signOut}
      </button>
    </>
  );
}
