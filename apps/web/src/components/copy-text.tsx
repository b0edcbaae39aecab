import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../lib/i18n/i18n.tsx';

/**
 * A value shown to be copied (a secret shown once), with a copy button: through the clipboard, said
 * beside the button; where the clipboard is not available (an insecure origin, a refusal) the value
 * is selected instead, to be copied by hand, and the note says so.
 */
export function CopyText(props: { value: string; label: string; focus?: boolean }) {
  const { value, label } = props;
  const { t } = useI18n();
  const shown = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // shown in place of the button that asked for it: the focus goes to this one
  useEffect(() => {
    if (props.focus) button.current?.focus();
  }, [props.focus]);
  const [state, setState] = useState<'idle' | 'copied' | 'selected'>('idle');
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      const el = shown.current;
      const selection = window.getSelection();
      if (el && selection) selection.selectAllChildren(el);
      setState('selected');
    }
  };
  return (
    <div className="copy-text">
      <code ref={shown} className="secret-value">
        {value}
      </code>
      <div className="copy-row">
        <button ref={button} type="button" className="ghost" onClick={copy}>
          {label}
        </button>
        <span role="status" className={`copy-note ${state === 'copied' ? 'copied' : ''}`}>
          {state === 'copied' ? `✓ ${t.copiedNote}` : state === 'selected' ? t.copyFallback : ''}
        </span>
      </div>
    </div>
  );
}
