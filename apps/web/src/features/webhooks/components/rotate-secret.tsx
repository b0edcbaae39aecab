import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CopyText } from '../../../components/copy-text.tsx';
import { ErrorNote } from '../../../components/error-note.tsx';
import { Time } from '../../../components/time.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { GRACE_SECONDS, rotateSecret, type Webhook } from '../api/webhooks.ts';

/**
 * Rotating a webhook's signing secret (docs/changes-and-webhooks.md#rotating-a-webhooks-secret):
 * choose how long the old one keeps signing, then the new one is shown once, with a copy button.
 */
export function RotateSecret(props: { webhook: Webhook; onDone(): void; onRotated(): void }) {
  const { t } = useI18n();
  const id = useId();
  const [grace, setGrace] = useState<number>(86_400);
  const rotate = useMutation({
    mutationFn: () => rotateSecret(props.webhook.id, grace),
    onSuccess: props.onRotated,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rotate.mutate();
  };
  const made = rotate.data;
  return (
    <section className="webhook-panel rotate-secret" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.rotateTitle}</h3>
      {made ? (
        <div className="notice secret">
          <p>{t.rotatedOnce}</p>
          <CopyText value={made.secret} label={t.copySecret} focus />
          <p className="muted old-secret">
            {made.previousSecretValidUntil ? (
              <>
                {t.oldSecretUntil} <Time iso={made.previousSecretValidUntil} />
              </>
            ) : (
              t.oldSecretStopped
            )}
          </p>
        </div>
      ) : (
        <form onSubmit={submit}>
          <p className="muted">{t.rotateHelp}</p>
          <fieldset className="grace">
            <legend>{t.graceLegend}</legend>
            {GRACE_SECONDS.map((seconds) => (
              <label key={seconds}>
                <input
                  type="radio"
                  name={`${id}-grace`}
                  value={seconds}
                  checked={grace === seconds}
                  onChange={() => setGrace(seconds)}
                />{' '}
                {t.grace(seconds)}
              </label>
            ))}
          </fieldset>
          <div className="row">
            <button type="submit" className="danger" disabled={rotate.isPending}>
              {t.rotateSecretYes}
            </button>
          </div>
          {rotate.isError && <ErrorNote error={rotate.error} />}
        </form>
      )}
      <div className="row">
        <button type="button" className="ghost" onClick={props.onDone}>
          {made ? t.done : t.cancel}
        </button>
      </div>
    </section>
  );
}
