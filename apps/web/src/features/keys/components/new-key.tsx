import { useState } from 'react';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import type { NewKey } from '../api/keys.ts';

/** A key just made (create or rotate): shown this once, with a copy button. */
export function NewKeyShown({ made }: { made: NewKey }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made.key);
      setCopied(true);
    } catch {
      // no clipboard (permission, insecure origin): the key stays shown to copy by hand
      setCopied(false);
    }
  };
  return (
    <div className="notice secret new-key" role="status">
      <p>{t.newKeyOnce(made.name)}</p>
      <div className="row">
        <code className="secret-value key-value">{made.key}</code>
        <button type="button" onClick={copy}>
          {copied ? t.copied : t.copy}
        </button>
      </div>
    </div>
  );
}
