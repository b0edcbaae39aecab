import type { Scope } from '@directory/core/scopes';
import { useI18n } from '../lib/i18n/i18n.tsx';
import { useCan } from '../lib/own-key.ts';

/**
 * What the entered key may not do here, said before anyone clicks: "Your key (name) cannot edit
 * projects: it lacks curate". Nothing when it may, or when no key is entered.
 */
export function ScopeNote({ scope }: { scope: Scope }) {
  const { t } = useI18n();
  const { can, own } = useCan(scope);
  if (can || !own) return null;
  return (
    <p className="notice scope-note" data-scope={scope}>
      {t.scopeLacking(own.name, t.scopeAction[scope], scope)}
    </p>
  );
}
