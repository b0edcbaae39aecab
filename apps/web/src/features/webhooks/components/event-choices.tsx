import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { EVENTS } from '../api/webhooks.ts';

/** The events a webhook subscribes to, as checkboxes (creating and editing one). */
export function EventChoices({ value, onChange }: { value: string[]; onChange(events: string[]): void }) {
  const { t } = useI18n();
  return (
    <fieldset className="events">
      <legend>{t.webhookEvents}</legend>
      {EVENTS.map((e) => (
        <label key={e}>
          <input
            type="checkbox"
            checked={value.includes(e)}
            onChange={(x) => onChange(x.target.checked ? [...value, e] : value.filter((v) => v !== e))}
          />{' '}
          <code>{e}</code>
        </label>
      ))}
    </fieldset>
  );
}
